//! The other members of a list a value is one of in a request: "서울이랑 부산", "서울, 부산,
//! 대구", "Seoul and Busan", "in Seoul and in Busan", "milk, eggs and bread". A request that
//! names several values where a tool takes one asks for one call per value.

use super::particles::{ends_in_consonant, trimmed_copy};

/// Joiners glued to the end of a Korean word that make it one member of a list ("서울이랑",
/// "우유와"), each with whether the syllable before it must end in a consonant (`Some(true)`),
/// a vowel (`Some(false)`), or either (`None`) — so "사과" is an apple, not "사" and. "하고"
/// is not among them: after a noun it is as often a verb ("양치하고", "운동하고") as a joiner.
const GLUED: &[(&str, Option<bool>)] = &[
    ("이랑", Some(true)),
    ("랑", Some(false)),
    ("과", Some(true)),
    ("와", Some(false)),
];

/// Joiners written as words of their own between members. "or" and "또는" are not among
/// them: they offer a choice, not several values.
const JOINERS: &[&str] = &["and", "&", "plus", "및", "그리고"];

/// English words that stand before a member: a preposition repeated before the next member
/// ("in Seoul and in Busan") or an article that starts one ("the eggs").
const LEADS: &[&str] = &[
    "in", "for", "to", "at", "from", "on", "with", "about", "near", "the", "a", "an", "my", "some",
];

/// English number words written before a member ("two avocados", "a dozen eggs").
const NUMBER_WORDS: &[&str] = &[
    "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
    "twelve", "dozen", "half", "couple", "few",
];

/// English words that start a clause after "and", not another member ("and then", "and tell
/// me", "and what about").
const CLAUSE_STARTS: &[&str] = &[
    "then", "also", "please", "tell", "show", "give", "let", "what", "how", "when", "where", "why",
    "can", "could", "would", "will", "i", "me", "it", "is", "are", "do", "does", "add", "set",
    "make", "get", "check", "remind", "send", "delete", "remove", "not", "no", "im", "i'm", "we",
    "you", "u", "they", "he", "she", "that", "this", "there", "here", "now", "today", "tonight",
    "tomorrow", "pls", "plz", "thanks", "instead", "too", "hi", "hello", "hey", "ok", "okay",
    "yes", "so", "well", "need", "want", "buy", "compare", "find", "search", "look", "put", "take",
];

/// Words that follow a verb, not a value ("reheat it later").
const OBJECTS: &[&str] = &[
    "it", "them", "me", "us", "him", "her", "that", "this", "those",
];

/// Endings of a Korean verb or sentence ("싶어", "알려줘", "할래"): a word ending in one is
/// no member of a list ("운동하고 싶어" joins two verbs, not two values).
const VERB_ENDINGS: &[&str] = &[
    "줘", "요", "래", "까", "싶어", "했어", "해봐", "니다", "는데", "지만", "거든", "하다", "한다",
    "했다", "된다", "하자",
];

/// The most other members read.
const MOST: usize = 4;

/// One word of a request, read for lists.
struct Word<'t> {
    /// The word as written.
    raw: &'t str,
    /// The word without the joiner, particle or punctuation after it.
    stem: &'t str,
    /// Whether the word is a joiner of its own ("and", "및").
    joiner: bool,
    /// Whether a joiner is glued to it ("서울이랑", "milk,").
    joined: bool,
    /// Whether that joiner is a comma.
    comma: bool,
}

impl<'t> Word<'t> {
    fn read(raw: &'t str) -> Self {
        let word = |stem, joiner, joined| Word {
            raw,
            stem,
            joiner,
            joined,
            comma: false,
        };
        if JOINERS.iter().any(|j| raw.eq_ignore_ascii_case(j)) {
            return word(raw, true, false);
        }
        if let Some(stem) = raw.strip_suffix(',').or_else(|| raw.strip_suffix('、')) {
            return Word {
                comma: true,
                ..word(trimmed_copy(stem), false, true)
            };
        }
        for (joiner, after_consonant) in GLUED {
            let Some(stem) = raw.strip_suffix(joiner) else {
                continue;
            };
            let Some(has_final) = stem.chars().last().and_then(ends_in_consonant) else {
                continue;
            };
            if after_consonant.is_none_or(|c| c == has_final) {
                return word(stem, false, true);
            }
        }
        word(trimmed_copy(raw), false, false)
    }

    fn is_lead(&self) -> bool {
        LEADS.iter().any(|l| self.raw.eq_ignore_ascii_case(l))
    }

    /// Whether the word is a number ("2", "1.5", "two", "a dozen"), written before a member.
    fn is_quantity(&self) -> bool {
        let digits = self.raw.chars().any(|c| c.is_ascii_digit())
            && self
                .raw
                .chars()
                .all(|c| c.is_ascii_digit() || c == '.' || c == ',');
        digits
            || NUMBER_WORDS
                .iter()
                .any(|n| self.raw.eq_ignore_ascii_case(n))
    }
}

fn same(a: &str, b: &str) -> bool {
    a.to_lowercase() == b.to_lowercase()
}

/// The other members of the list `value` is one of in `text`, in the order written, each
/// without the joiner or particle after it (see [`member_end`] for where one ends):
/// "서울이랑 부산 날씨 둘 다" with `value` "서울" → ["부산"]; "weather in Seoul and in Busan"
/// with "Busan" → ["Seoul"]. A Korean list joined by glued particles alone ("친구랑 부산 여행")
/// is read only where the text says it means several ("둘 다", "각각"): 랑 and 와 also mean
/// *with*. Empty where `value` is in no list, is not in `text`, or the text picks one of the
/// list ("1번이랑 3번 중에 1번만", "only", "either").
pub(crate) fn conjuncts(text: &str, value: &str) -> Vec<String> {
    read_list(text, value, says_several(text))
}

/// Words that say a request means each of several things ("둘 다 지워줘", "both").
const SEVERAL: &[&str] = &[
    "둘 다", "셋 다", "각각", "모두", "전부", "both", "each", " all ",
];

/// Words that pick one thing of a list ("1번이랑 3번 중에", "1번만", "only", "either").
const PICKS: &[&str] = &[" 중에", " 중 ", " 사이", "만 ", "only", "either", "one of"];

fn says_several(text: &str) -> bool {
    let text = format!("{} ", text.to_lowercase());
    SEVERAL.iter().any(|w| text.contains(w))
}

/// [`conjuncts`], reading a list joined by glued Korean particles alone where `glued_alone`.
fn read_list(text: &str, value: &str, glued_alone: bool) -> Vec<String> {
    let padded = format!("{} ", text.to_lowercase());
    if PICKS.iter().any(|w| padded.contains(w)) {
        return Vec::new();
    }
    let value_words: Vec<&str> = value.split_whitespace().collect();
    let n = value_words.len();
    // "as well as" joins as "and" does.
    let text = text.replace(" as well as ", " and ");
    let words: Vec<Word<'_>> = text.split_whitespace().map(Word::read).collect();
    if n == 0 || n > words.len() {
        return Vec::new();
    }
    let Some(at) = (0..=words.len() - n).find(|&i| {
        value_words.iter().enumerate().all(|(k, v)| {
            let word = &words[i + k];
            !word.joiner && (same(word.stem, v) || (k + 1 < n && same(word.raw, v)))
        })
    }) else {
        return Vec::new();
    };
    let lead = at.checked_sub(1).map(|i| &words[i]).filter(|w| w.is_lead());
    // Whether a member is joined by a word or a particle, not only by commas; and by a word
    // or a comma, not only by particles.
    let mut by_word = false;
    let mut unglued = false;
    let mut before = Vec::new();
    let mut first = at;
    while before.len() < MOST {
        let mut k = first;
        if k > 0 && words[k - 1].is_lead() {
            k -= 1;
        }
        if k == 0 {
            break;
        }
        if words[k - 1].joiner {
            k -= 1;
            by_word = true;
            unglued = true;
        } else if !words[k - 1].joined {
            break;
        } else {
            by_word |= !words[k - 1].comma;
            unglued |= words[k - 1].comma;
        }
        // The member ends at `k` and runs back to the word after the previous joiner.
        let mut start = k;
        while start > 0
            && k - start < n
            && !words[start - 1].joiner
            && (start == k || !words[start - 1].joined)
            && !words[start - 1].is_lead()
            && !is_clause_start(words[start - 1].stem)
        {
            start -= 1;
        }
        let Some(member) = member(&words[start..k], value) else {
            break;
        };
        before.push(member);
        first = start;
    }
    before.reverse();
    let mut after = Vec::new();
    let mut last = at + n - 1;
    while after.len() + before.len() < MOST {
        let mut next = last + 1;
        if !words[last].joined && !words.get(next).is_some_and(|w| w.joiner) {
            break;
        }
        if words.get(next).is_some_and(|w| w.joiner) {
            next += 1;
            by_word = true;
            unglued = true;
        } else {
            by_word |= !words[last].comma;
            unglued |= words[last].comma;
        }
        if let (Some(lead), Some(word)) = (lead, words.get(next))
            && same(word.raw, lead.raw)
        {
            next += 1;
        }
        // An article or a quantity before the member is not of it ("the eggs", "2 avocados").
        while words
            .get(next)
            .is_some_and(|w| w.is_lead() || w.is_quantity())
        {
            next += 1;
        }
        let end = member_end(&words, next, n);
        if end == next {
            break;
        }
        // A member followed by an object ("reheat it") is a verb, not a value.
        if words
            .get(end)
            .is_some_and(|w| OBJECTS.iter().any(|o| w.raw.eq_ignore_ascii_case(o)))
        {
            break;
        }
        let Some(member) = member(&words[next..end], value) else {
            break;
        };
        after.push(member);
        last = end - 1;
    }
    before.extend(after);
    // Two parts joined by a comma alone are as often a value and a remark ("2분 숨쉬기,
    // 레벨3", "the pasta, im not hungry") as a list: commas alone make one of three or more.
    if !by_word && before.len() < 2 {
        return Vec::new();
    }
    if !unglued && !glued_alone {
        return Vec::new();
    }
    let mut seen = vec![value.to_lowercase()];
    before.retain(|member| {
        let key = member.to_lowercase();
        let fresh = !seen.contains(&key);
        seen.push(key);
        fresh
    });
    before
}

/// Where the member starting at `words[start]` ends (exclusive), for a value of `n` words.
/// A Korean member is `n` words at most, ending early at a word a joiner is glued to. An
/// English member runs to the next joiner ("red onions, and garlic" holds "red onions") or
/// to what starts something else — a preposition, a clause, the end of a sentence ("2
/// avocados to my list" holds "avocados") — at most four words; a member nothing ends within
/// four words is `n`.
fn member_end(words: &[Word<'_>], start: usize, n: usize) -> usize {
    let korean = words
        .get(start)
        .is_some_and(|w| w.raw.chars().any(|c| ends_in_consonant(c).is_some()));
    let longest = if korean { n } else { 4 };
    let mut end = start;
    let mut ended = false;
    while end < words.len() && end - start < longest {
        let word = &words[end];
        if word.joiner || word.is_lead() || is_clause_start(word.raw) {
            ended = true;
            break;
        }
        end += 1;
        if word.joined || word.raw.ends_with(['?', '.', '!']) {
            ended = true;
            break;
        }
    }
    ended |= end == words.len();
    if !korean && !ended && end - start > n {
        // Nothing ended it: the value's own length.
        end = start + n;
    }
    end
}

fn is_clause_start(word: &str) -> bool {
    CLAUSE_STARTS.iter().any(|c| word.eq_ignore_ascii_case(c))
}

/// Every list `text` writes, each as its members in the order written ("1번이랑 6번 둘 다" →
/// [["1번", "6번"]]).
pub(crate) fn lists(text: &str) -> Vec<Vec<String>> {
    let mut lists: Vec<Vec<String>> = Vec::new();
    for raw in text.split_whitespace() {
        let word = Word::read(raw);
        if word.joiner || lists.iter().any(|l| l.iter().any(|m| m == word.stem)) {
            continue;
        }
        let others = read_list(text, word.stem, true);
        if others.is_empty() {
            continue;
        }
        let mut list = vec![word.stem.to_owned()];
        list.extend(others);
        lists.push(list);
    }
    lists
}

/// The text of a list member made of `words` — the last one's stem — if it can be one: not
/// `value` again, not the start of a clause, not a verb.
fn member(words: &[Word<'_>], value: &str) -> Option<String> {
    let (last, rest) = words.split_last()?;
    let mut text: Vec<&str> = rest.iter().map(|w| w.raw).collect();
    text.push(last.stem);
    let text = text.join(" ");
    let clause = is_clause_start(words[0].stem);
    let verb = VERB_ENDINGS.iter().any(|e| last.stem.ends_with(e));
    let empty = !text.chars().any(char::is_alphanumeric);
    (!clause && !verb && !empty && !same(&text, value)).then_some(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn korean_lists_are_read_either_way_from_the_value() {
        assert_eq!(
            conjuncts("서울이랑 부산 날씨 둘 다 알려줘", "서울"),
            ["부산"]
        );
        assert_eq!(
            conjuncts("서울이랑 부산 날씨 둘 다 알려줘", "부산"),
            ["서울"]
        );
        // 랑 and 와 also mean *with*: alone they make a list only of several things asked.
        assert!(conjuncts("친구랑 부산 여행 가는데 날씨 어때?", "부산").is_empty());
        assert!(conjuncts("서울이랑 부산 날씨 알려줘", "서울").is_empty());
        assert_eq!(conjuncts("서울, 부산, 대구 날씨", "서울"), ["부산", "대구"]);
        assert_eq!(conjuncts("서울, 부산, 대구 날씨", "부산"), ["서울", "대구"]);
        assert_eq!(conjuncts("우유와 계란 각각 추가해줘", "우유"), ["계란"]);
        assert_eq!(conjuncts("우유 및 계란", "계란"), ["우유"]);
        assert_eq!(conjuncts("동해랑 서해 날씨 둘 다", "동해"), ["서해"]);
        assert_eq!(conjuncts("동해, 서해랑 남해", "서해"), ["동해", "남해"]);
        assert_eq!(lists("1번이랑 6번 둘 다 지워줘"), [["1번", "6번"]]);
        assert!(lists("1번 말고 6번 지워줘").is_empty());
        assert!(lists("1번이랑 3번 중에 1번만 지워줘").is_empty());
        assert!(conjuncts("either Seoul or Busan and Daegu", "Busan").is_empty());
        assert_eq!(conjuncts("서울이랑 부산이랑 부산 둘 다", "서울"), ["부산"]);
    }

    #[test]
    fn english_lists_skip_a_repeated_preposition_and_articles() {
        assert_eq!(
            conjuncts("What's the weather in Seoul and in Busan?", "Seoul"),
            ["Busan"]
        );
        assert_eq!(
            conjuncts("What's the weather in Seoul and in Busan?", "Busan"),
            ["Seoul"]
        );
        assert_eq!(
            conjuncts("add milk, eggs and bread to my list", "milk"),
            ["eggs", "bread"]
        );
        assert_eq!(
            conjuncts("add milk, eggs, and bread", "bread"),
            ["milk", "eggs"]
        );
        assert_eq!(
            conjuncts("time in New York and Los Angeles", "New York"),
            ["Los Angeles"]
        );
        assert_eq!(conjuncts("buy the milk and the eggs", "milk"), ["eggs"]);
        assert_eq!(conjuncts("add bread and 2 avocados", "bread"), ["avocados"]);
        assert_eq!(conjuncts("add bread and a dozen eggs", "bread"), ["eggs"]);
        assert_eq!(conjuncts("milk as well as butter", "milk"), ["butter"]);
        assert_eq!(
            conjuncts(
                "need butter as well as brown sugar for the cookies",
                "butter"
            ),
            ["brown sugar"]
        );
        assert_eq!(
            conjuncts("add avocados, red onions, and garlic", "avocados"),
            ["red onions", "garlic"]
        );
        assert_eq!(
            conjuncts("weather in Seoul and Busan today", "Seoul"),
            ["Busan"]
        );
        assert_eq!(conjuncts("add 2 avocados and bread", "bread"), ["avocados"]);
    }

    #[test]
    fn words_that_are_no_list_members_are_not_read_as_one() {
        // A value copied with its list already has every member.
        assert!(conjuncts("recipes with chicken and rice", "chicken and rice").is_empty());
        // Clauses, verbs and choices.
        assert!(conjuncts("add milk and then show my list", "milk").is_empty());
        assert!(conjuncts("add milk and tell me the total", "milk").is_empty());
        assert!(conjuncts("freeze cooked rice and reheat it later?", "rice").is_empty());
        assert!(conjuncts("forget the pasta, im not hungry", "pasta").is_empty());
        assert_eq!(conjuncts("Hi, milk and eggs please", "milk"), ["eggs"]);
        assert_eq!(
            conjuncts("I need milk and brown sugar", "brown sugar"),
            ["milk"]
        );
        assert_eq!(
            conjuncts("milk and a bottle of wine", "milk"),
            ["bottle of wine"]
        );
        assert!(conjuncts("운동하고 싶어", "운동").is_empty());
        assert!(conjuncts("자기 전 양치하고 치실 한 번", "치실 한 번").is_empty());
        assert!(conjuncts("점심 먹고 2분 숨쉬기, 레벨3", "2분 숨쉬기").is_empty());
        assert!(conjuncts("서울 또는 부산", "서울").is_empty());
        assert!(conjuncts("Seoul or Busan", "Seoul").is_empty());
        // "과" of 사과 is no joiner; a value with no list around it has no others.
        assert!(conjuncts("사과 추가해줘", "사").is_empty());
        assert!(conjuncts("사과 두 개 추가", "사과").is_empty());
        assert!(conjuncts("서울 날씨랑 미세먼지", "서울").is_empty());
        assert!(conjuncts("부산 날씨", "서울").is_empty());
        assert!(conjuncts("", "서울").is_empty());
    }
}
