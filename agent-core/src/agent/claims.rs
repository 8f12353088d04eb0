//! Whether an answer says that something was done: "기록했어요", "추가해 뒀어요", "삭제가
//! 완료되었습니다", "I've added it", "Logged!". A small model answering in words, shown the
//! app's tools, often reports the write the request asked for though no call ran — the
//! person then believes a change was saved that never was. An answer of a turn that changed
//! nothing must not claim a change, so the agent holds such an answer back.
//!
//! The words of a claim are the common actions that change an app's data (add, save, log,
//! delete, change, cancel, set, mark…) in both languages, and the actions the app's own
//! destructive tools name: the last word of a tool's Korean label ("마감일 변경", "기록
//! 고치기") and the first word of its name (`archive_note` → "archived"). A question
//! ("기록했어요?"), a sentence that says what was not done ("아직 추가하지 않았어요") and one
//! that quotes the person ("그만뒀다니 대단해요") claim nothing.

use crate::registry::Registry;
use crate::request::spellings;

/// Korean nouns of actions that change data, said as done with 했/됐/완료 after them.
const KOREAN_NOUNS: &[&str] = &[
    "기록",
    "추가",
    "등록",
    "저장",
    "삭제",
    "제거",
    "변경",
    "수정",
    "취소",
    "설정",
    "예약",
    "표시",
    "체크",
    "완료",
    "입력",
    "보관",
    "반영",
    "적용",
    "업데이트",
    "처리",
    "정정",
];

/// Korean verb stems of actions that change data, said as done in their past forms
/// ("적었", "지웠", "바꿨", "넣어 뒀", "남겼"). 만들 and 보내 are left out: their past
/// mostly praises or tells of the person's day ("만들었네요", "보냈어요").
const KOREAN_VERBS: &[&str] = &[
    "적",
    "넣",
    "지우",
    "바꾸",
    "옮기",
    "올리",
    "고치",
    "그만두",
    "없애",
    "담",
    "남기",
    "찍",
];

/// Marks of a sentence that is no claim: a question ("기록했어요?"), one that says what was
/// not done ("아직 추가하지 않았어요", "I haven't added it"), or one that quotes the person
/// ("그만뒀다니 대단해요"). Matched in the lowercased sentence, spaces kept.
const NO_CLAIM: &[&str] = &[
    "?", "않", "안 했", "안했", "못 했", "못했", "다니", "n't", " not ", "have you", "did you",
    "should i", "shall i",
];

/// What follows a verb's 어-form to say the action is done and kept: "해 뒀어요",
/// "적어 놨어요", "바꿔 드렸어요" (spaces removed).
const KEPT: &[&str] = &["뒀", "두었", "놨", "놓았", "드렸"];

/// What follows an action noun to say it is done: "기록 완료", "추가가 완료되었습니다"
/// (spaces removed).
const KOREAN_DONE: &[&str] = &[
    "완료",
    "이완료",
    "가완료",
    "을완료",
    "를완료",
    "을마쳤",
    "를마쳤",
];

/// English participles of actions that change data.
const ENGLISH_DONE: &[&str] = &[
    "added",
    "logged",
    "recorded",
    "saved",
    "deleted",
    "removed",
    "created",
    "updated",
    "changed",
    "scheduled",
    "cancelled",
    "canceled",
    "marked",
    "moved",
    "booked",
    "sent",
    "archived",
    "stopped",
    "completed",
    "noted",
    "registered",
    "cleared",
    "renamed",
    "corrected",
    "edited",
    "stored",
    "entered",
    "tracked",
    "set",
    "put",
];

/// Words before a participle that make it a report of the deed ("I've added", "has been
/// saved", "is now marked", "successfully logged").
const ENGLISH_SUBJECTS: &[&str] = &[
    "i",
    "i've",
    "i’ve",
    "ive",
    "have",
    "has",
    "been",
    "was",
    "were",
    "now",
    "successfully",
    "just",
    "already",
    "we've",
    "we",
];

/// The words by which an answer claims an action done, for one app: see the module doc.
#[derive(Debug, Clone)]
pub(super) struct Claims {
    /// Korean past forms, spaces removed ("기록했", "기록해뒀", "지웠", "기록완료").
    korean: Vec<String>,
    /// English participles.
    english: Vec<String>,
}

impl Claims {
    /// The claims of the common actions and of `registry`'s destructive tools.
    pub(super) fn new(registry: &Registry) -> Self {
        let mut nouns: Vec<String> = KOREAN_NOUNS.iter().map(|s| (*s).to_owned()).collect();
        let mut verbs: Vec<String> = KOREAN_VERBS.iter().map(|s| (*s).to_owned()).collect();
        let mut english: Vec<String> = ENGLISH_DONE.iter().map(|s| (*s).to_owned()).collect();
        for tool in registry.tools().filter(|tool| tool.is_destructive()) {
            if let Some(word) = tool.label().split_whitespace().next_back() {
                if let Some(noun) = word.strip_suffix("하기").filter(|n| !n.is_empty()) {
                    nouns.push(noun.to_owned());
                } else if let Some(verb) = word.strip_suffix('기').filter(|v| !v.is_empty()) {
                    verbs.push(verb.to_owned());
                } else if crate::request::has_hangul(word) {
                    nouns.push(word.to_owned());
                }
            }
            if let Some(first) = tool.name().split(['_', '.', '-']).next() {
                english.extend(participles(&first.to_lowercase()));
            }
        }
        let mut korean = Vec::new();
        for noun in &nouns {
            // "기록을 했어요", "추가가 됐어요".
            for particle in ["을", "를", "이", "가"] {
                for done in ["했", "됐", "되었"] {
                    korean.push(format!("{noun}{particle}{done}"));
                }
            }
            for done in [
                "했",
                "하였",
                "됐",
                "되었",
                "해두었",
                "해뒀",
                "해놨",
                "해놓았",
                "해드렸",
            ] {
                korean.push(format!("{noun}{done}"));
            }
            korean.extend(KOREAN_DONE.iter().map(|done| format!("{noun}{done}")));
        }
        for verb in &verbs {
            korean.extend(korean_pasts(verb));
        }
        korean.sort();
        korean.dedup();
        english.sort();
        english.dedup();
        Self { korean, english }
    }

    /// Whether a sentence of `answer` says an action was done (see the module doc; a
    /// sentence with a mark of [`NO_CLAIM`] says nothing was).
    pub(super) fn claims_done(&self, answer: &str) -> bool {
        sentences(answer).any(|sentence| {
            let lower = format!(" {} ", sentence.to_lowercase());
            !NO_CLAIM.iter().any(|mark| lower.contains(mark)) && self.claims_in(sentence)
        })
    }

    /// Whether `sentence` holds a claim's words.
    fn claims_in(&self, sentence: &str) -> bool {
        let squashed: String = sentence.split_whitespace().collect();
        if self
            .korean
            .iter()
            .any(|past| squashed.contains(past.as_str()))
        {
            return true;
        }
        let lower = sentence.to_lowercase();
        let words: Vec<&str> = lower
            .split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '’'))
            .filter(|w| !w.is_empty())
            .collect();
        if words.first() == Some(&"done") {
            return true;
        }
        // A participle opening the answer reports the deed ("Logged!"); a bare verb opening
        // it is advice ("Set a goal").
        words.iter().enumerate().any(|(at, word)| {
            self.english.iter().any(|done| done == word)
                && ((at == 0 && word.ends_with("ed"))
                    || words[at.saturating_sub(2)..at]
                        .iter()
                        .any(|before| ENGLISH_SUBJECTS.contains(before)))
        })
    }
}

/// The sentences of `text`, each with the mark that ends it ("기록했어요?" keeps its "?").
fn sentences(text: &str) -> impl Iterator<Item = &str> {
    text.split_inclusive(['.', '!', '?', '\n', '。'])
        .map(str::trim)
        .filter(|sentence| !sentence.is_empty())
}

/// The past forms of a Korean verb stem, spaces removed: the stem's contracted spellings with
/// ㅆ ("지우" → "지웠", "고치" → "고쳤"), the stem with 었/았 ("적었", "그만두었"), and its
/// 어-form before [`KEPT`] ("적어뒀", "바꿔놨").
fn korean_pasts(stem: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut a_forms = Vec::new();
    let Some(last) = stem.chars().next_back() else {
        return out;
    };
    let code = u32::from(last);
    if !(0xAC00..=0xD7A3).contains(&code) {
        return out;
    }
    // The ending as a syllable of its own: "적었", "그만두었".
    for ending in ["었", "았"] {
        out.push(format!("{stem}{ending}"));
    }
    if (code - 0xAC00) % 28 != 0 {
        for ending in ["어", "아"] {
            a_forms.push(format!("{stem}{ending}"));
        }
    } else {
        for spelling in spellings(stem) {
            let mut chars: Vec<char> = spelling.chars().collect();
            let Some(end) = chars.last().copied() else {
                continue;
            };
            // ㅆ is the 20th final consonant.
            if let Some(with_ss) = char::from_u32(u32::from(end) + 20) {
                chars.pop();
                chars.push(with_ss);
                out.push(chars.into_iter().collect());
            }
            a_forms.push(spelling);
        }
    }
    for form in a_forms {
        out.extend(KEPT.iter().map(|kept| format!("{form}{kept}")));
    }
    out
}

/// The English past participles a verb may take: "log" → "logged", "archive" → "archived",
/// "add" → "added", "set" → "set".
fn participles(verb: &str) -> Vec<String> {
    if verb.is_empty() || !verb.chars().all(|c| c.is_ascii_alphabetic()) {
        return Vec::new();
    }
    let mut out = vec![format!("{verb}ed"), format!("{verb}d"), verb.to_owned()];
    if let Some(last) = verb.chars().next_back() {
        out.push(format!("{verb}{last}ed"));
    }
    // The bare verb ("set", "put") counts only where it is its own participle.
    if !["set", "put", "cut", "reset"].contains(&verb) {
        out.retain(|form| form != verb);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{Claims, korean_pasts};
    use crate::registry::Registry;

    fn claims() -> Claims {
        Claims::new(
            &Registry::builder()
                .build()
                .expect("an empty registry builds"),
        )
    }

    #[test]
    fn korean_verb_stems_take_their_past_forms() {
        let pasts = |stem: &str| korean_pasts(stem);
        assert!(pasts("지우").contains(&"지웠".to_owned()));
        assert!(pasts("고치").contains(&"고쳤".to_owned()));
        assert!(pasts("적").contains(&"적었".to_owned()));
        assert!(pasts("적").contains(&"적어뒀".to_owned()));
        assert!(pasts("바꾸").contains(&"바꿔놨".to_owned()));
    }

    #[test]
    fn an_answer_reporting_a_change_is_a_claim() {
        let claims = claims();
        for answer in [
            "2025-03-10 '완료'를 기록했어요.",
            "네, 추가해 뒀어요!",
            "삭제가 완료되었습니다.",
            "마감일을 금요일로 바꿨어요.",
            "메모에 적어 놨어요.",
            "I've added milk to your list.",
            "Your timer has been set.",
            "Logged!",
            "Done — it's on your list.",
            "기록을 했어요.",
            "오늘은 쉰 날로 남겼어요.",
            "좋아요! 1번 습관 기록했어요. 내일도 화이팅!",
        ] {
            assert!(claims.claims_done(answer), "{answer}");
        }
    }

    #[test]
    fn praise_offers_and_questions_are_no_claim() {
        let claims = claims();
        for answer in [
            "오늘도 걷기 잘했어요! 정말 멋져요.",
            "기록해 드릴까요?",
            "아직 기록하지 않았어요. 어떤 날로 기록할까요?",
            "추가하려면 습관 이름을 알려 주세요.",
            "천만에요! 언제든 말씀하세요.",
            "Would you like me to add it?",
            "Sure, which list should it go on?",
            "You did great today!",
            "Set a small goal and put your shoes by the door.",
            "오늘 물 기록했어요?",
            "Have you logged your walk today?",
            "I haven't added it yet — which list?",
            "Should I set a reminder for 8am?",
            "담배를 그만뒀다니 대단해요!",
        ] {
            assert!(!claims.claims_done(answer), "{answer}");
        }
    }
}
