//! Free-text values a request labels: the text after a parameter's name or a word of its
//! description and a colon ("메모: 20쪽 읽음"), or inside the quotes that follow it ("메모로
//! '비 와서 조금만' 남겨줘").

/// Quote pairs a labelled value may be written in.
const QUOTES: [(char, char); 6] = [
    ('\'', '\''),
    ('"', '"'),
    ('‘', '’'),
    ('“', '”'),
    ('「', '」'),
    ('『', '』'),
];
/// The most letters glued to a label before the quote of its value: a particle ("메모로
/// '…'", "메모는 '…'"); a longer word ("메모하는 습관 '일기'") makes it no label.
const MAX_PARTICLE_CHARS: usize = 3;

/// Where the value labelled `label` lies in `lower` (a lower-cased request), as a byte range:
/// after `label` and a colon, to the end of its line (inside quotes, if it starts with one);
/// or inside the quotes that follow `label` and at most a particle. `label` must start a
/// word.
pub(super) fn value_after(lower: &str, label: &str) -> Option<(usize, usize)> {
    let label = label.to_lowercase();
    lower.match_indices(&label).find_map(|(at, _)| {
        let before = lower[..at].chars().next_back();
        if before.is_some_and(char::is_alphanumeric) {
            return None;
        }
        let rest = &lower[at + label.len()..];
        let offset = |tail: &str| lower.len() - tail.len();
        let after = rest.trim_start();
        if let Some(colon) = after.chars().next().filter(|c| [':', '：'].contains(c)) {
            let value = after[colon.len_utf8()..].trim_start();
            let line_end = value.find('\n').map_or(lower.len(), |i| offset(value) + i);
            return Some(quoted(value, offset(value)).unwrap_or((offset(value), line_end)));
        }
        let particle: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric())
            .take(MAX_PARTICLE_CHARS + 1)
            .collect();
        if particle.chars().count() > MAX_PARTICLE_CHARS {
            return None;
        }
        let tail = rest[particle.len()..].trim_start();
        quoted(tail, offset(tail))
    })
}

/// The byte range inside the quotes `text` starts with (`at` is where `text` starts), if it
/// starts with an opening quote that closes on the same line.
fn quoted(text: &str, at: usize) -> Option<(usize, usize)> {
    let open = text.chars().next()?;
    let (_, close) = QUOTES.iter().find(|(o, _)| *o == open)?;
    let inner = &text[open.len_utf8()..];
    let end = inner.find(*close)?;
    (!inner[..end].contains('\n')).then(|| (at + open.len_utf8(), at + open.len_utf8() + end))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value<'a>(lower: &'a str, label: &str) -> Option<&'a str> {
        value_after(lower, label).map(|(s, e)| &lower[s..e])
    }

    #[test]
    fn a_label_is_followed_by_a_colon_or_quotes() {
        assert_eq!(value("메모: 20쪽 읽음\n고마워", "메모"), Some("20쪽 읽음"));
        assert_eq!(value("메모로 '비 와서' 남겨", "메모"), Some("비 와서"));
        assert_eq!(value("메모: '공원'", "메모"), Some("공원"));
        assert_eq!(value("메모하는 습관 '일기'", "메모"), None, "no particle");
        assert_eq!(value("단메모: x", "메모"), None, "inside another word");
        assert_eq!(value("메모 '안 닫힘", "메모"), None, "an unclosed quote");
    }
}
