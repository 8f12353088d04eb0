//! The Korean particles that follow a name in a request, and a copied name without them.

/// Korean particles and endings that follow a name in a request ("부산은", "학부모총회가",
/// "판교역이에요"), longest first, each with whether the syllable before it must end in a
/// consonant (`Some(true)`), a vowel (`Some(false)`), or either (`None`). Particles that
/// also end common nouns ("이" of 고양이, "도" of 제주도) are not among them.
pub(crate) const TRAILING_PARTICLES: &[(&str, Option<bool>)] = &[
    ("이에요", Some(true)),
    ("이라는", Some(true)),
    ("입니다", None),
    ("으로", Some(true)),
    ("에서", None),
    ("까지", None),
    ("부터", None),
    ("한테", None),
    ("에게", None),
    ("이랑", Some(true)),
    ("라는", Some(false)),
    ("예요", Some(false)),
    ("은", Some(true)),
    ("는", Some(false)),
    ("을", Some(true)),
    ("를", Some(false)),
    ("가", Some(false)),
    ("과", Some(true)),
    ("와", Some(false)),
    ("로", Some(false)),
    ("랑", Some(false)),
    ("에", None),
    ("의", None),
    ("좀", None),
];

/// A text copied from a request without the punctuation after it and the particle its last
/// word carries, when at least two syllables of that word are left (one, for a particle of
/// two: "엔에서" → "엔"): "부산은" → "부산",
/// "테크세미나가" → "테크세미나", "내용이야?" → "내용이야"; "요가" stays.
pub(crate) fn trimmed_copy(text: &str) -> &str {
    let text = text.trim_end_matches(|c: char| c.is_whitespace() || ".,!?~;:".contains(c));
    let last_word = text.rsplit(char::is_whitespace).next().unwrap_or(text);
    for (particle, after_consonant) in TRAILING_PARTICLES {
        if particle_stem(last_word, particle, *after_consonant).is_some() {
            return &text[..text.len() - particle.len()];
        }
    }
    text
}

/// `word` without `particle` (one of [`TRAILING_PARTICLES`], `after_consonant` its
/// condition), where it ends in it after a syllable it fits — or after a Latin letter or a
/// digit ("json으로", "Accept는"), where either form is written — and leaves at least two
/// syllables (one, for a particle of two: "엔에서" → 엔).
pub(crate) fn particle_stem<'w>(
    word: &'w str,
    particle: &str,
    after_consonant: Option<bool>,
) -> Option<&'w str> {
    let stem = word.strip_suffix(particle)?;
    let last = stem.chars().last()?;
    let fits = match ends_in_consonant(last) {
        Some(has_final) => after_consonant.is_none_or(|c| c == has_final),
        None => last.is_ascii_alphanumeric(),
    };
    let shortest = if particle.chars().count() >= 2 { 1 } else { 2 };
    (fits && stem.chars().count() >= shortest).then_some(stem)
}

/// Whether the Hangul syllable `c` ends in a consonant (받침), which decides the form of the
/// particle after it ("서울이랑", "부산이랑" but "대구랑"); `None` for any other character.
pub(crate) fn ends_in_consonant(c: char) -> Option<bool> {
    ('가'..='힣')
        .contains(&c)
        .then(|| (u32::from(c) - 0xAC00) % 28 != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_copied_name_ends_where_its_words_do() {
        assert_eq!(trimmed_copy("부산은"), "부산");
        assert_eq!(trimmed_copy("테크세미나가"), "테크세미나");
        assert_eq!(trimmed_copy("판교역이에요"), "판교역");
        assert_eq!(trimmed_copy("어벤저스 엔드게임은"), "어벤저스 엔드게임");
        assert_eq!(trimmed_copy("천지연폭포까지"), "천지연폭포");
        assert_eq!(trimmed_copy("엔에서"), "엔");
        assert_eq!(trimmed_copy("원으로"), "원");
        assert_eq!(trimmed_copy("무슨 내용이야?"), "무슨 내용이야");
        // A particle's ending that is part of a short noun, or after the wrong syllable, stays.
        assert_eq!(trimmed_copy("요가"), "요가");
        assert_eq!(trimmed_copy("고양이"), "고양이");
        assert_eq!(trimmed_copy("제주도"), "제주도");
        assert_eq!(trimmed_copy("소금을"), "소금");
        assert_eq!(trimmed_copy("kpop mix"), "kpop mix");
        // After Latin letters either form of a particle goes, and no shorter one is cut.
        assert_eq!(trimmed_copy("json으로"), "json");
        assert_eq!(trimmed_copy("Accept는"), "Accept");
    }
}
