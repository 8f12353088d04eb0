//! The tree a prompt format describes a call with, before it is compiled.

/// What a call may look like.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Node {
    /// Exactly this text.
    Lit(String),
    /// These, one after the other.
    Seq(Vec<Node>),
    /// Any one of these.
    Alt(Vec<Node>),
    /// This or nothing.
    Opt(Box<Node>),
    /// This, any number of times (zero included).
    Star(Box<Node>),
    /// The content of a string (its delimiters are separate literals).
    Str(StrSpec),
    /// A decimal integer within bounds, without leading zeros.
    Int {
        /// Smallest value, if bounded.
        min: Option<i64>,
        /// Largest value, if bounded.
        max: Option<i64>,
    },
    /// One ASCII digit (for number and date shapes).
    Digit,
    /// A stretch of `source`, copied: at least one character, at most `max`, starting where
    /// a word starts (string delimiters are separate literals).
    Copy {
        /// The text to copy from (characters a string may not hold already removed as
        /// boundaries: see [`Node::copy`]).
        source: std::sync::Arc<[char]>,
        /// Most characters.
        max: u32,
    },
}

/// The content of a string slot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct StrSpec {
    /// Fewest characters.
    pub(crate) min: u32,
    /// Most characters.
    pub(crate) max: u32,
    /// ASCII characters that may not appear unescaped (the delimiter, the escape character).
    pub(crate) forbid: &'static [char],
    /// Whether `\"`, `\\` and `\/` escapes are written (JSON and Python strings); each counts
    /// as one character.
    pub(crate) escapes: bool,
}

/// The longest string a model may write into one slot without a schema `maxLength`: long
/// enough for any sentence a tool wants, short enough that a runaway string ends.
pub(crate) const DEFAULT_MAX_CHARS: u32 = 200;

impl StrSpec {
    /// A JSON (or Python) string body: `"` and `\` only as escapes.
    #[cfg(test)]
    pub(crate) fn quoted(min: u32, max: u32) -> Self {
        Self {
            min,
            max,
            forbid: &['"', '\\'],
            escapes: true,
        }
    }

    /// Whether `c` may stand unescaped in the string: no delimiter, no control or format
    /// character (a model must not be able to write what a terminal or a dialog would
    /// interpret, or text that is invisible).
    pub(crate) fn allows(&self, c: char) -> bool {
        !self.forbid.contains(&c) && !is_unsafe_char(c)
    }
}

/// Control characters (C0, DEL, C1), line and paragraph separators, and the invisible or
/// reordering format characters: zero-width ones, bidi embeddings, overrides and isolates,
/// word joiners, the BOM, the soft hyphen.
pub(crate) fn is_unsafe_char(c: char) -> bool {
    c.is_control()
        || matches!(c,
            '\u{00AD}'
            | '\u{061C}'
            | '\u{180E}'
            | '\u{200B}'..='\u{200F}'
            | '\u{2028}'..='\u{202E}'
            | '\u{2060}'..='\u{206F}'
            | '\u{FEFF}'
            | '\u{FFF9}'..='\u{FFFB}')
}

impl Node {
    /// A copy of part of `text` that a string with `spec` may hold: characters it may not
    /// hold become breaks a copy cannot cross (written as NUL, which no text contains).
    pub(crate) fn copy(text: &str, spec: &StrSpec) -> Self {
        let source: Vec<char> = text
            .chars()
            .map(|c| if spec.allows(c) { c } else { '\0' })
            .collect();
        Self::Copy {
            source: source.into(),
            max: spec.max,
        }
    }

    /// `text` as a literal.
    pub(crate) fn lit(text: impl Into<String>) -> Self {
        Self::Lit(text.into())
    }

    /// Alternatives, collapsed when there is only one.
    pub(crate) fn alt(mut nodes: Vec<Node>) -> Self {
        if nodes.len() == 1 {
            nodes.remove(0)
        } else {
            Self::Alt(nodes)
        }
    }

    /// A sequence, with adjacent literals merged (fewer VM states) and nested sequences
    /// flattened.
    pub(crate) fn seq(nodes: Vec<Node>) -> Self {
        let mut out: Vec<Node> = Vec::with_capacity(nodes.len());
        for node in nodes {
            let parts = match node {
                Node::Seq(inner) => inner,
                other => vec![other],
            };
            for part in parts {
                match (out.last_mut(), part) {
                    (Some(Node::Lit(last)), Node::Lit(text)) => last.push_str(&text),
                    (_, Node::Lit(text)) if text.is_empty() => {}
                    (_, part) => out.push(part),
                }
            }
        }
        if out.len() == 1 {
            out.remove(0)
        } else {
            Self::Seq(out)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sequences_merge_literals() {
        let node = Node::seq(vec![
            Node::lit("{"),
            Node::seq(vec![Node::lit("\"a\""), Node::lit(":")]),
            Node::Digit,
            Node::lit(""),
            Node::lit("}"),
        ]);
        assert_eq!(
            node,
            Node::Seq(vec![Node::lit("{\"a\":"), Node::Digit, Node::lit("}")])
        );
    }

    #[test]
    fn unsafe_characters_are_refused_in_strings() {
        let spec = StrSpec::quoted(0, 10);
        for c in [
            '\n', '\r', '\u{1b}', '\u{85}', '\u{202E}', '\u{200B}', '\u{FEFF}', '"',
        ] {
            assert!(!spec.allows(c), "{c:?}");
        }
        for c in ['a', '가', ' ', '\'', '😀'] {
            assert!(spec.allows(c), "{c:?}");
        }
    }
}
