//! FNV-1a, 64 bits: a small, stable hash for cache keys and file checks. Stable across Rust
//! versions and platforms (std's hashers are not), and the inputs are not adversarial: a key
//! names a prefix, and a file whose contents do not hash to its recorded value is rebuilt.

/// A 64-bit FNV-1a hasher.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Fnv64(u64);

impl Default for Fnv64 {
    fn default() -> Self {
        Self(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv64 {
    /// Adds bytes.
    pub(crate) fn write(&mut self, bytes: &[u8]) {
        for byte in bytes {
            self.0 ^= u64::from(*byte);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    /// Adds a string and a separator, so `("ab", "c")` and `("a", "bc")` differ.
    pub(crate) fn write_str(&mut self, text: &str) {
        self.write(text.as_bytes());
        self.write(&[0xff]);
    }

    /// The hash so far.
    pub(crate) fn finish(&self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_values_and_separators() {
        let mut hash = Fnv64::default();
        hash.write(b"a");
        assert_eq!(
            hash.finish(),
            0xaf63_dc4c_8601_ec8c,
            "the published FNV-1a value of \"a\""
        );
        let (mut x, mut y) = (Fnv64::default(), Fnv64::default());
        x.write_str("ab");
        x.write_str("c");
        y.write_str("a");
        y.write_str("bc");
        assert_ne!(x.finish(), y.finish());
    }
}
