//! Reassembly of UTF-8 text from token pieces.
//!
//! A token's bytes need not end on a character boundary: Gemma's byte-fallback tokens split
//! Korean syllables (three bytes each) across tokens. [`Utf8Buffer`] holds an incomplete tail
//! until the next piece completes it, and replaces bytes that can never become valid UTF-8 with
//! U+FFFD instead of failing, because the model, not the program, chose them.

/// Accumulates token bytes and hands out only complete characters.
#[derive(Debug, Default)]
pub(crate) struct Utf8Buffer {
    pending: Vec<u8>,
}

impl Utf8Buffer {
    /// Adds `bytes` and returns every character that is now complete.
    pub(crate) fn push(&mut self, bytes: &[u8]) -> String {
        self.pending.extend_from_slice(bytes);
        let mut out = String::new();
        loop {
            match std::str::from_utf8(&self.pending) {
                Ok(text) => {
                    out.push_str(text);
                    self.pending.clear();
                    return out;
                }
                Err(error) => {
                    let valid = error.valid_up_to();
                    // The prefix was just validated, so this cannot fail; `from_utf8_lossy`
                    // keeps the code free of a panic path all the same.
                    out.push_str(&String::from_utf8_lossy(&self.pending[..valid]));
                    match error.error_len() {
                        // An incomplete sequence at the end: wait for the next piece.
                        None => {
                            self.pending.drain(..valid);
                            return out;
                        }
                        // Bytes that no continuation can repair.
                        Some(bad) => {
                            out.push(char::REPLACEMENT_CHARACTER);
                            self.pending.drain(..valid + bad);
                        }
                    }
                }
            }
        }
    }

    /// Ends the stream: an incomplete tail becomes U+FFFD.
    pub(crate) fn finish(&mut self) -> String {
        if self.pending.is_empty() {
            return String::new();
        }
        self.pending.clear();
        char::REPLACEMENT_CHARACTER.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn korean_syllable_split_across_pieces_is_held_until_complete() {
        let bytes = "습관".as_bytes();
        let mut buffer = Utf8Buffer::default();
        assert_eq!(buffer.push(&bytes[..1]), "");
        assert_eq!(buffer.push(&bytes[1..4]), "습");
        assert_eq!(buffer.push(&bytes[4..]), "관");
        assert_eq!(buffer.finish(), "");
    }

    #[test]
    fn invalid_bytes_become_replacement_characters() {
        let mut buffer = Utf8Buffer::default();
        assert_eq!(buffer.push(b"a\xffb"), "a\u{fffd}b");
        assert_eq!(buffer.push(b"\xc3\x28"), "\u{fffd}(");
    }

    #[test]
    fn incomplete_tail_at_the_end_becomes_one_replacement_character() {
        let mut buffer = Utf8Buffer::default();
        assert_eq!(buffer.push(&"한".as_bytes()[..2]), "");
        assert_eq!(buffer.finish(), "\u{fffd}");
        assert_eq!(buffer.finish(), "");
    }
}
