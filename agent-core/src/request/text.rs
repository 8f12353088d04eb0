//! [`Request`]: a person's message as the tool-choice stage reads it — the text, its
//! lower-cased form (made once), its words, and the places it splits into two parts.

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

    /// The places the message splits between two sentences (see [`sentence_splits`]).
    pub(crate) fn sentence_splits(&self) -> Vec<(String, String)> {
        sentence_splits(&self.text)
    }
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

/// The places `text` splits between its sentences: after each word but the last that ends
/// in sentence-final punctuation (`.` `!` `?` `~` `…`, repeated or not). A message of two
/// sentences is the plainest way to ask for two things ("오늘 걷기 했어! 며칠 연속이야?"),
/// and unlike a split between any two words it does not cut one request into a part that
/// names a thing and a part that asks about it ("1번 습관 | 연속 기록 알려줘").
pub(crate) fn sentence_splits(text: &str) -> Vec<(String, String)> {
    let words: Vec<&str> = text.split_whitespace().collect();
    (1..words.len())
        .filter(|&split| words[split - 1].ends_with(SENTENCE_ENDS))
        .map(|split| (words[..split].join(" "), words[split..].join(" ")))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_is_lower_cased_once() {
        let request = Request::new("KIND b 수면");
        assert_eq!(request.text(), "KIND b 수면");
        assert_eq!(request.lower(), "kind b 수면");
    }

    #[test]
    fn requests_split_between_sentences_after_their_punctuation() {
        assert_eq!(
            sentence_splits("오늘 걷기 했어!! 며칠 연속이야? 고마워~"),
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
        assert!(sentence_splits("1번 습관 연속 기록 알려줘").is_empty());
        assert!(
            sentence_splits("build.water-first 추가").is_empty(),
            "a full stop inside a word ends nothing"
        );
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
