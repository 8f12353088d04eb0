//! [`Request`]: a person's message as the tool-choice stage reads it — the text, its
//! lower-cased form (made once), the places it splits into two parts or clauses, and what it
//! says of an action (asked for, or said not to do).

/// The most places a text is split at to be read part by part: every split costs two
/// readings, so a long text is split at evenly spread places only and its cost grows with its
/// length, not its square. Texts of up to 15 words are split everywhere.
const MAX_SPLITS: usize = 12;

/// Marks that end a sentence when a word ends with them (repeated or not).
const SENTENCE_ENDS: [char; 8] = ['.', '!', '?', '~', '…', '。', '！', '？'];

/// A person's message, read once; see the module doc.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Request {
    text: String,
    lower: String,
}

impl Request {
    /// Reads `text`.
    pub(crate) fn new(text: &str) -> Self {
        Self {
            text: text.to_owned(),
            lower: text.to_lowercase(),
        }
    }

    /// The message as written.
    pub(crate) fn text(&self) -> &str {
        &self.text
    }

    /// The message lower-cased: what values and labels are matched against.
    pub(crate) fn lower(&self) -> &str {
        &self.lower
    }

    /// The places the message splits between two words, each part at least `min_words`
    /// long (see [`splits`]).
    pub(crate) fn word_splits(&self, min_words: usize) -> Vec<(String, String)> {
        splits(&self.text, min_words)
    }

    /// What the message says of an action spelt with `cue` (a lower-cased stem): refused
    /// where the last time the cue stands in it is negated — followed closely by "말고", "지
    /// 마", "지 말", "않", "안 해" ("지우지는 말고", "기록은 하지 마", "추가는 안 할래") or
    /// preceded within its clause's last three words by "don't", "not", "no", "never" or a
    /// word ending in "n't" ("don't delete", "don't change the date", "no due date") — and
    /// asked for where it stands there un-negated. The last word on an action is the person's decision:
    /// "추가할까 하다가 말았어. 추가는 하지 마" refuses it, "3번은 추가하지 말고 4번 추가해줘"
    /// asks for it.
    pub(crate) fn said(&self, cue: &str) -> Said {
        self.said_where(cue, cue.is_ascii())
    }

    /// [`said`](Self::said), where the cue must start a word in any script: "해줘" is not
    /// said in "삭제해줘", whose action is "삭제". For the stronger moves, where a word that
    /// only ends another would add an action the person did not ask for.
    pub(crate) fn said_as_word(&self, cue: &str) -> Said {
        self.said_where(cue, true)
    }

    fn said_where(&self, cue: &str, word_start: bool) -> Said {
        match self.occurrences(cue, word_start).last() {
            None => Said::Nothing,
            Some((_, true)) => Said::Refused,
            Some((_, false)) => Said::Asked,
        }
    }

    /// Where `cue` stands un-negated in the message, as a word's start (see
    /// [`said_as_word`](Self::said_as_word)): the byte offsets, first to last — none where
    /// its last place is negated (see [`said`](Self::said)).
    pub(crate) fn asked_at(&self, cue: &str) -> Vec<usize> {
        let occurrences = self.occurrences(cue, true);
        if occurrences.last().is_some_and(|(_, negated)| *negated) {
            return Vec::new();
        }
        occurrences
            .into_iter()
            .filter(|(_, negated)| !negated)
            .map(|(at, _)| at)
            .collect()
    }

    /// Each place `cue` stands in the lower-cased message (starting a word where
    /// `word_start`), and whether it is negated there.
    fn occurrences(&self, cue: &str, word_start: bool) -> Vec<(usize, bool)> {
        let mut out = Vec::new();
        for (at, _) in self.lower.match_indices(cue) {
            if word_start
                && self.lower[..at]
                    .chars()
                    .next_back()
                    .is_some_and(char::is_alphanumeric)
            {
                // An English cue starts a word: "add" is not in "address". (A Korean one
                // may follow another word's syllables only where `said` allows it.)
                continue;
            }
            let after: String = self.lower[at + cue.len()..]
                .chars()
                .take(NEGATION_REACH)
                .collect();
            let after: String = after.chars().filter(|c| !c.is_whitespace()).collect();
            let negated = KOREAN_NEGATIONS.iter().any(|n| after.contains(n))
                || (NO_NEED.iter().any(|n| after.contains(n))
                    && KOREAN_PREVERBAL_NEGATIONS.iter().any(|n| {
                        self.lower[..at]
                            .strip_suffix(n)
                            .is_some_and(|head| !ends_in_word(head))
                    }))
                || negated_in_english(&self.lower[..at]);
            out.push((at, negated));
        }
        out
    }

    /// Whether the message asks *about* something rather than for it to be done: how it is
    /// done, why, what would happen if, whether it is better — or says it is only asking, or
    /// not trying to have it done ("할 일 추가할 때 우선순위는 어떻게 정해?", "how do I delete
    /// a task?", "만약 지우면 되돌릴 수 있어?", "just wondering", "끝냈다고 체크하려는 건
    /// 아니고"). The action words in such a message are its topic.
    pub(crate) fn asks_about(&self) -> bool {
        const MARKS: [&str; 28] = [
            "어떻게",
            "방법",
            "설명",
            "만약",
            "왜 ",
            "궁금",
            "물어보",
            "물어봐",
            "물어본",
            "물어봤",
            "려는 건 아니",
            "려는 게 아니",
            "려는게 아니",
            "how do",
            "how to",
            "how does",
            "how can",
            "how should",
            "why",
            "explain",
            "what if",
            "what happens",
            "wondering",
            "just asking",
            "is it better",
            "should i",
            "not asking",
            "not trying",
        ];
        MARKS.iter().any(|mark| self.lower.contains(mark))
    }

    /// Whether the message's last sentence is a question for information, not a polite ask
    /// for an action: it ends in "?" and opens with a question word ("what habits am I
    /// tracking right now?", "which one did I finish?", "when is it due?"), with "if", or
    /// with "is/are/does/did/should …" not followed by "you" ("is it due today?") rather than
    /// "can/could/would/will you …" — or, in Korean, holds a question word ("뭐", "언제",
    /// "몇", "어디", "무슨", "어느", "누구") and asks for nothing to be done ("…해줘",
    /// "…해 줄래?"). Such a question is answered, never by a call that writes.
    pub(crate) fn asks_information(&self) -> bool {
        const ENGLISH: [&str; 10] = [
            "what", "what's", "whats", "which", "when", "where", "who", "whose", "how", "how's",
        ];
        // Openings of a yes/no question about how things are ("is it …", "does it …",
        // "should I …"); "can/could/will/would/do you …" and "can I …" are polite asks.
        const AUXILIARIES: [&str; 10] = [
            "is", "are", "was", "were", "does", "did", "am", "has", "have", "should",
        ];
        const KOREAN: [&str; 9] = [
            "뭐", "뭔", "언제", "몇", "어디", "무슨", "어느", "누구", "무엇",
        ];
        let text = self.lower.trim_end();
        if !text.ends_with('?') {
            return false;
        }
        // The last sentence: what follows the last sentence end before the final "?".
        let body = &text[..text.len() - 1];
        let last = body
            .rfind(['.', '!', '?', '\n'])
            .map_or(body, |at| &body[at + 1..])
            .trim();
        if self.is_korean() {
            let words: Vec<&str> = last.split_whitespace().collect();
            words
                .iter()
                .any(|word| KOREAN.iter().any(|q| word.starts_with(q)))
                && !KOREAN_ASKS.iter().any(|ask| last.contains(ask))
        } else {
            let mut words = last
                .split(|c: char| c.is_whitespace() || c == ',')
                .filter(|w| !w.is_empty())
                .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric() && c != '\''));
            let first = words.next().unwrap_or_default();
            let second = words.next().unwrap_or_default();
            (ENGLISH.contains(&first) && !last.starts_with("how about"))
                || (AUXILIARIES.contains(&first) && !["you", "u"].contains(&second))
                || first == "if"
        }
    }

    /// Whether the message asks for something to be done, by its form rather than its
    /// words for an action: a Korean ask ending ("…해줘", "…해 주세요", "…할래") or an
    /// English ask ("please", "can you …", "I'd like …", or a clause opening with a verb
    /// that changes data: "log it", "add milk"). "고마워", "👍" and "what's the minimum?" ask nothing.
    pub(crate) fn asks_to_do(&self) -> bool {
        const ENGLISH_ASKS: [&str; 10] = [
            "please ",
            "can you",
            "could you",
            "would you",
            "will you",
            "can u",
            "i want ",
            "i'd like",
            "i would like",
            "let's",
        ];
        const OPENING_VERBS: [&str; 16] = [
            "log", "add", "mark", "set", "delete", "remove", "change", "put", "record", "save",
            "stop", "start", "track", "update", "cancel", "make",
        ];
        // Thanks for what was done ("기록해줘서 고마워") ask for nothing more.
        if ["고마", "감사", "thank", "thx"]
            .iter()
            .any(|thanks| self.lower.contains(thanks))
        {
            return false;
        }
        if self.is_korean() {
            return KOREAN_ASKS.iter().any(|ask| self.lower.contains(ask));
        }
        // The first word of each clause ("flossed tonight, log it").
        let opens_with_a_verb = self
            .lower
            .replace(" and ", ",")
            .replace(" then ", ",")
            .split([',', '.', '!', '?', ';'])
            .filter_map(|clause| {
                clause
                    .split(|c: char| !c.is_alphanumeric() && c != '\'')
                    .find(|w| !w.is_empty())
                    .map(str::to_owned)
            })
            .any(|first| OPENING_VERBS.contains(&first.as_str()));
        let padded = format!("{} ", self.lower.trim_end_matches(['.', '!', '?']));
        ENGLISH_ASKS.iter().any(|ask| padded.contains(ask)) || opens_with_a_verb
    }

    /// Whether the message asks to leave things as they are ("그냥 두기로 했어. 건드리지 마",
    /// "그대로 둬", "leave it alone", "don't touch it"): it asks for no change, whatever
    /// action it mentions on the way.
    pub(crate) fn leaves_alone(&self) -> bool {
        const MARKS: [&str; 16] = [
            "건드리지 마",
            "건드리지 말",
            "손대지 마",
            "손대지 말",
            "그대로 둬",
            "그대로 두기로",
            "그대로 두세요",
            "그냥 둬",
            "그냥 두기로",
            "그냥 두세요",
            "놔둬",
            "놔두기로",
            "leave it as it is",
            "leave it alone",
            "don't touch",
            "do not touch",
        ];
        MARKS.iter().any(|mark| self.lower.contains(mark))
    }

    /// Whether the word at byte offset `at` modifies the next one rather than being a verb of
    /// its own: a Korean word followed by "거", "것", "건" or "걸" ("적어둔 거", "끝난 것")
    /// names a thing by what was done to it.
    pub(crate) fn modifies_next(&self, at: usize) -> bool {
        let Some(rest) = self.lower.get(at..) else {
            return false;
        };
        let mut words = rest.split_whitespace();
        words.next();
        words
            .next()
            .is_some_and(|next| ["거", "것", "건", "걸"].iter().any(|n| next.starts_with(n)))
    }

    /// Whether the word at byte offset `at` may be the sentence's main verb: it names no
    /// thing by what was done to it ([`modifies_next`](Self::modifies_next)) and, in a Korean
    /// message, leads to no next clause ([`joins_next`](Self::joins_next)).
    pub(crate) fn may_be_main_verb(&self, at: usize) -> bool {
        !(self.modifies_next(at) || (self.is_korean() && self.joins_next(at)))
    }

    /// Whether the word at byte offset `at` ends in a Korean connective ("보여주고",
    /// "적어두고,", "갔다가", "했는데"): a clause that leads to the next, whose own verb is the
    /// sentence's main one.
    pub(crate) fn joins_next(&self, at: usize) -> bool {
        const CONNECTIVES: [&str; 6] = ["고", "서", "며", "다가", "는데", "지만"];
        let Some(rest) = self.lower.get(at..) else {
            return false;
        };
        let word = rest.split_whitespace().next().unwrap_or_default();
        let word = word.trim_end_matches(|c: char| !c.is_alphanumeric());
        CONNECTIVES.iter().any(|c| word.ends_with(c))
    }

    /// Whether the message is written in Korean (has a Hangul syllable): its main verb comes
    /// last, where an English request's imperative comes first.
    pub(crate) fn is_korean(&self) -> bool {
        has_hangul(&self.lower)
    }

    /// The places the message splits between two clauses: between sentences, and after a
    /// word that joins one clause to the next (see [`clause_splits`]).
    pub(crate) fn clause_splits(&self) -> Vec<(String, String)> {
        clause_splits(&self.text)
    }
}

/// The parts of a snake_case, camelCase or dotted name, lower-cased ("friendName" → friend,
/// name).
pub(crate) fn name_parts(name: &str) -> Vec<String> {
    let mut parts = Vec::new();
    let mut part = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        if !c.is_alphanumeric() {
            parts.push(std::mem::take(&mut part));
            prev_lower = false;
            continue;
        }
        if c.is_uppercase() && prev_lower {
            parts.push(std::mem::take(&mut part));
        }
        prev_lower = c.is_lowercase() || c.is_ascii_digit();
        part.extend(c.to_lowercase());
    }
    parts.push(part);
    parts.retain(|p| !p.is_empty());
    parts
}

/// Whether `text` has a Hangul syllable.
pub(crate) fn has_hangul(text: &str) -> bool {
    text.chars().any(|c| ('\u{AC00}'..='\u{D7A3}').contains(&c))
}

/// `stem` and the spellings a Korean verb stem takes when a vowel contracts with the ending:
/// "바꾸" and "바꿔", "지우" and "지워", "늘리" and "늘려", "하" and "해". A word of another
/// script is only itself.
pub(crate) fn spellings(stem: &str) -> Vec<String> {
    /// Vowel pairs (medial indices) that one verb spells both ways: ㅜ/ㅝ, ㅗ/ㅘ, ㅣ/ㅕ,
    /// ㅡ/ㅓ, ㅏ/ㅐ.
    const CONTRACTED: [(u32, u32); 5] = [(13, 14), (8, 9), (20, 6), (18, 4), (0, 1)];
    let mut out = vec![stem.to_owned()];
    let Some(last) = stem.chars().next_back() else {
        return out;
    };
    let code = u32::from(last);
    if !(0xAC00..=0xD7A3).contains(&code) {
        return out;
    }
    let index = code - 0xAC00;
    let (initial, medial, coda) = (index / (21 * 28), (index / 28) % 21, index % 28);
    if coda != 0 {
        return out;
    }
    for (a, b) in CONTRACTED {
        let other = if medial == a {
            b
        } else if medial == b {
            a
        } else {
            continue;
        };
        if let Some(c) = char::from_u32(0xAC00 + (initial * 21 + other) * 28) {
            let mut variant: String = stem.chars().take(stem.chars().count() - 1).collect();
            variant.push(c);
            out.push(variant);
        }
    }
    out
}

/// Korean endings that ask for something to be done ("…해줘", "…해 줄래?", "…하자").
const KOREAN_ASKS: [&str; 9] = [
    "줘",
    "줄래",
    "주세요",
    "줄 수",
    "주실",
    "주라",
    "해봐",
    "하자",
    "할래",
];

/// What a message says of an action: see [`Request::said`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Said {
    /// It asks for it.
    Asked,
    /// It mentions it only to say not to do it.
    Refused,
    /// It does not mention it.
    Nothing,
}

/// How many characters after (Korean) or before (English) an action's word a negation of it
/// may stand.
const NEGATION_REACH: usize = 8;

/// What follows a Korean verb or noun to negate it, spaces removed ("지우지는 말고", "기록은
/// 하지 마", "추가 말고", "추가는 안 할래").
const KOREAN_NEGATIONS: [&str; 10] = [
    "말고",
    "지마",
    "지말",
    "않",
    "말아",
    "안할",
    "안해",
    "안하",
    "건아니",
    "게아니",
];

/// Korean words that stand before a verb to negate it, each a word of its own. Alone they
/// negate an event ("오늘 걷기 못 했어" reports a missed day, which a coach records); with an
/// ending of [`NO_NEED`] they say the action is not wanted ("가계부엔 안 적어도 돼").
const KOREAN_PREVERBAL_NEGATIONS: [&str; 2] = ["안 ", "못 "];

/// What follows a verb negated before it to say there is no need for it ("안 적어도 돼",
/// "안 지워도 괜찮아"), spaces removed.
const NO_NEED: [&str; 4] = ["도돼", "도된", "도됨", "도괜찮"];

/// Whether `head` ends inside a word (its last character is a letter or digit): the "안" of
/// "보안 " ends a word, the one of "기록 안 " stands alone.
fn ends_in_word(head: &str) -> bool {
    head.chars().next_back().is_some_and(char::is_alphanumeric)
}

/// Words that negate the English words after them in their clause.
const ENGLISH_NEGATIONS: [&str; 6] = ["don't", "dont", "don’t", "not", "no", "never"];

/// How many words before an English word a negation of its clause reaches: "don't delete",
/// "don't change the date", "no due date".
const ENGLISH_NEGATION_WORDS: usize = 3;

/// Whether the English text `head` (what precedes a word, lower-cased) negates the word
/// that follows it: one of its clause's last [`ENGLISH_NEGATION_WORDS`] words is a negation
/// or ends in "n't" ("didn't finish"). A comma, a sentence's end or "but" ends the clause:
/// "no, add it" and "not now, but add it" ask.
fn negated_in_english(head: &str) -> bool {
    let clause = head
        .rsplit([',', '.', ';', ':', '!', '?'])
        .next()
        .unwrap_or(head);
    let clause = clause.rsplit(" but ").next().unwrap_or(clause);
    clause
        .split_whitespace()
        .rev()
        .take(ENGLISH_NEGATION_WORDS)
        .any(|word| {
            ENGLISH_NEGATIONS.contains(&word) || word.ends_with("n't") || word.ends_with("n’t")
        })
}

/// Words that join a clause to the next one: "그리고", "then", "and".
const JOINING_WORDS: [&str; 8] = [
    "그리고",
    "그다음",
    "그다음에",
    "다음에",
    "그러고",
    "and",
    "then",
    "also",
];

/// Korean endings of a verb that joins its clause to the next ("보여주고", "찾아서").
const JOINING_ENDINGS: [&str; 2] = ["고", "서"];

/// Endings that look like a joining one but are not ("에서": a place, "부터"/"하고" before a
/// noun are rarer than the verbs and left in).
const NOT_JOINING: [&str; 1] = ["에서"];

/// The places `text` splits between two clauses: after each word but the last that ends a
/// sentence (with `.` `!` `?` `~` `…`, repeated or not: "오늘 걷기 했어! 며칠 연속이야?"), or
/// that joins its clause to the next — one ending in a comma, a
/// joining word ("그리고", "then", "and") or a Korean verb in its joining form ("보여주고",
/// "찾아서"). A message asking for two things mostly joins them so ("목록 보여주고 3번은
/// 지워줘", "Add it and show me the list"); a split anywhere else mostly cuts one request into
/// what it names and what it asks.
pub(crate) fn clause_splits(text: &str) -> Vec<(String, String)> {
    let words: Vec<&str> = text.split_whitespace().collect();
    (1..words.len())
        .filter(|&split| {
            let word = words[split - 1];
            let bare = word.trim_end_matches([',', '，', '、']);
            let lower = bare.to_lowercase();
            word.ends_with(SENTENCE_ENDS)
                || bare.len() < word.len()
                || JOINING_WORDS.contains(&lower.as_str())
                || (bare.chars().count() >= 2
                    && JOINING_ENDINGS.iter().any(|e| bare.ends_with(e))
                    && !NOT_JOINING.iter().any(|e| bare.ends_with(e)))
        })
        .map(|split| (words[..split].join(" "), words[split..].join(" ")))
        .collect()
}

/// The places `text` is split at to be read part by part: between two words, each part at
/// least `min_words` long, at most [`MAX_SPLITS`] places evenly spread over the text (the
/// first and the last included; every place when there are few enough).
pub(crate) fn splits(text: &str, min_words: usize) -> Vec<(String, String)> {
    let words: Vec<&str> = text.split_whitespace().collect();
    if words.len() < 2 * min_words {
        return Vec::new();
    }
    let places = words.len() - 2 * min_words + 1;
    let count = places.min(MAX_SPLITS);
    let mut splits: Vec<usize> = (0..count)
        .map(|i| min_words + i * (places - 1) / (count - 1).max(1))
        .collect();
    splits.dedup();
    splits
        .into_iter()
        .map(|split| (words[..split].join(" "), words[split..].join(" ")))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_question_for_information_is_told_from_a_polite_ask() {
        let asks = |text: &str| Request::new(text).asks_information();
        assert!(asks("what habits am I tracking right now?"));
        assert!(asks("ok thanks. which one did I finish yesterday?"));
        assert!(asks("3번 할 일 언제까지야?"));
        assert!(asks("오늘 몇 개 했어?"));
        assert!(!asks("can you log my walk?"));
        assert!(!asks("what's my streak"), "no question mark: may be an ask");
        assert!(!asks("뭐든 좋으니까 하나 추가해 줄래?"));
        assert!(!asks("3번 완료 처리해줘"));
        assert!(!asks("how about adding a stretch?"));
        assert!(asks("If I remove something by accident, can I undo it?"));
        assert!(asks("is the dentist one due today?"));
        assert!(!asks("can I add eggs to the list?"));
        assert!(!asks("could you remove the milk?"));
    }

    #[test]
    fn a_message_that_asks_for_something_done_is_told_from_thanks_and_questions() {
        let asks = |text: &str| Request::new(text).asks_to_do();
        for asking in [
            "아 근데 결국 읽었어 ㅋㅋ 완료로 바꿔줘",
            "어제 독서는 쉰 날로 남겨 주세요",
            "flossed tonight, log it",
            "log my walk please",
            "Add eggs",
            "can you mark it done?",
        ] {
            assert!(asks(asking), "{asking}");
        }
        for not in [
            "ㄱㅅ",
            "👍",
            "오케이 고마워",
            "기록해줘서 고마워",
            "what's the minimum I should do?",
            "thanks!",
            "I was pleased with it",
        ] {
            assert!(!asks(not), "{not}");
        }
    }

    #[test]
    fn a_message_that_asks_about_an_action_is_told_from_one_that_asks_for_it() {
        for about in [
            "할일 추가할 때 우선순위는 어떻게 정하는 게 좋아?",
            "How do I delete a task?",
            "만약 지우면 되돌릴 수 있어?",
            "추가하라는 게 아니라 그냥 물어본 거야",
            "보고서 끝냈다고 체크하려는 건 아니고, 뭘 쓰면 돼?",
            "Don't add anything, I'm just wondering",
        ] {
            assert!(Request::new(about).asks_about(), "{about}");
        }
        for asking in [
            "우유 사기 추가해줘",
            "Delete the dentist task",
            "3번 끝냈어",
        ] {
            assert!(!Request::new(asking).asks_about(), "{asking}");
        }
    }

    #[test]
    fn a_message_that_asks_to_leave_things_alone_is_told_from_one_that_names_a_thing() {
        for alone in [
            "지울까 하다가 그냥 두기로 했어. 건드리지 마",
            "3번은 그대로 둬",
            "Leave it alone, I changed my mind",
            "don't touch the list",
        ] {
            assert!(Request::new(alone).leaves_alone(), "{alone}");
        }
        // Tofu ("두부") is no leaving alone, nor is leaving one item to delete another.
        for asking in ["그냥 두부 사기 추가해줘", "2번은 그냥 두고 3번 지워줘"]
        {
            assert!(!Request::new(asking).leaves_alone(), "{asking}");
        }
    }

    #[test]
    fn the_last_word_on_an_action_decides() {
        let request = Request::new("장보기 추가할까 하다가 말았어. 추가는 하지 마");
        assert_eq!(request.said("추가"), Said::Refused);
        assert!(request.asked_at("추가").is_empty());
        let request = Request::new("3번은 추가하지 말고 4번 추가해줘");
        assert_eq!(request.said("추가"), Said::Asked);
        assert_eq!(request.asked_at("추가").len(), 1);
        let request = Request::new("Add milk. Actually no, don't add it");
        assert_eq!(request.said("add"), Said::Refused);
    }

    #[test]
    fn an_english_negation_reaches_over_a_few_words_of_its_clause() {
        let said = |text: &str, cue: &str| Request::new(text).said(cue);
        assert_eq!(said("Add it, no due date", "date"), Said::Refused);
        assert_eq!(said("don't change the date", "date"), Said::Refused);
        assert_eq!(said("I didn't finish it", "finish"), Said::Refused);
        assert_eq!(said("No, add it", "add"), Said::Asked);
        assert_eq!(said("not now but add it later", "add"), Said::Asked);
        assert_eq!(
            said("don't add milk and then delete task 3", "delete"),
            Said::Asked
        );
    }

    #[test]
    fn an_action_is_asked_where_it_stands_unnegated_at_a_words_start() {
        let request = Request::new("지우지 말고 적어둔 거 찾아봐");
        assert!(request.asked_at("지우").is_empty(), "negated");
        assert_eq!(request.asked_at("찾아").len(), 1);
        let request = Request::new("가계부엔 안 적어도 돼, 보안 바꿔도 돼");
        assert!(request.asked_at("적어").is_empty(), "no need for it");
        assert_eq!(request.asked_at("바꿔").len(), 1, "a word ending in 안");
        let request = Request::new("오늘 걷기 못 했어");
        assert_eq!(request.asked_at("했").len(), 1, "a missed day is reported");
        assert!(request.is_korean());
        assert!(!Request::new("find the milk task").is_korean());
    }

    #[test]
    fn a_request_is_lower_cased_once() {
        let request = Request::new("KIND b 수면");
        assert_eq!(request.text(), "KIND b 수면");
        assert_eq!(request.lower(), "kind b 수면");
    }

    #[test]
    fn requests_split_between_sentences_after_their_punctuation() {
        assert_eq!(
            clause_splits("오늘 걷기 했어!! 며칠 연속이야? 고마워~"),
            [
                (
                    "오늘 걷기 했어!!".to_owned(),
                    "며칠 연속이야? 고마워~".to_owned()
                ),
                (
                    "오늘 걷기 했어!! 며칠 연속이야?".to_owned(),
                    "고마워~".to_owned()
                ),
            ],
            "after each sentence but the last"
        );
        assert!(clause_splits("1번 습관 연속 기록 알려줘").is_empty());
        assert!(
            clause_splits("build.water-first 추가").is_empty(),
            "a full stop inside a word ends nothing"
        );
    }

    #[test]
    fn a_verb_stem_is_spelt_both_ways() {
        assert_eq!(spellings("바꾸"), ["바꾸", "바꿔"]);
        assert_eq!(spellings("지워"), ["지워", "지우"]);
        assert_eq!(spellings("늘려"), ["늘려", "늘리"]);
        assert_eq!(spellings("삭제"), ["삭제"]);
        assert_eq!(
            spellings("기록"),
            ["기록"],
            "a syllable with a final consonant"
        );
        assert_eq!(spellings("delete"), ["delete"]);
    }

    #[test]
    fn clauses_split_where_a_word_joins_them() {
        let at = |text: &str| -> Vec<String> {
            clause_splits(text)
                .into_iter()
                .map(|(left, _)| left)
                .collect()
        };
        assert_eq!(at("목록 보여주고 3번은 지워줘"), ["목록 보여주고"]);
        assert_eq!(
            at("끝난 일 보여주고, 코트 건은 지워"),
            ["끝난 일 보여주고,"]
        );
        assert_eq!(at("찾아서 지워줘"), ["찾아서"]);
        assert_eq!(at("Add it and show me the list"), ["Add it and"]);
        assert_eq!(at("오늘 걷기 했어! 며칠 연속이야?"), ["오늘 걷기 했어!"]);
        assert!(
            at("지난주 내역에서 충전한 거").is_empty(),
            "a place is no clause"
        );
        assert!(at("오늘 할 일 보여줘").is_empty());
    }

    #[test]
    fn requests_split_between_words_at_evenly_spread_places() {
        assert_eq!(
            splits("목록  보여주고 3번 체크", 1),
            [
                ("목록".to_owned(), "보여주고 3번 체크".to_owned()),
                ("목록 보여주고".to_owned(), "3번 체크".to_owned()),
                ("목록 보여주고 3번".to_owned(), "체크".to_owned()),
            ],
            "every place, spacing normalised"
        );
        assert_eq!(splits("목록 보여주고 3번 체크", 2).len(), 1);
        assert!(splits("목록 보여줘", 2).is_empty(), "too short to split");
        assert!(splits("목록", 1).is_empty());
        let long = vec!["말"; 40].join(" ");
        let places = splits(&long, 1);
        assert_eq!(
            places.len(),
            MAX_SPLITS,
            "a long text at spread places only"
        );
        assert_eq!(places[0].0, "말", "the first place");
        assert_eq!(places[MAX_SPLITS - 1].1, "말", "and the last");
    }
}
