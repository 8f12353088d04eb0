//! The layout of llama.cpp's sequence-state file, checked before llama.cpp reads one.
//!
//! llama.cpp's own reader trusts the file's length: a read that ends exactly at the end of
//! the file is filled with zeros rather than refused, and the reader then asserts that it read
//! no more than the file holds — so a state file cut short (a torn write, or a forged file
//! whose `.meta` was rewritten to match) aborts the process. This module walks the file the
//! way llama.cpp will, with every length bounded by the bytes actually there, and accepts it
//! only when the walk ends exactly at the file's end and the cells are those of the prefix it
//! should hold. What it cannot know from the file alone (the model's row sizes and types)
//! llama.cpp checks itself and refuses with an error, not an assertion.
//!
//! The layout (llama.cpp's `state_seq_save_file` and its KV caches' `state_write`), all
//! little-endian: the magic `ggsq`, the version, the token count and the tokens; then each
//! KV cache of the model in turn (one, or two for a model with sliding-window layers — the
//! full-attention cache first): a stream count, and per stream a cell count; for a stream
//! with cells, each cell's position, its number of sequences (1) and the sequence; then the
//! V layout flag, the layer count, two rotation sizes, and per layer a K type, a K row size
//! and the rows; per layer a V type and either a row size and rows or (transposed V) an
//! element size, a width and the elements.

/// `ggsq`, llama.cpp's sequence-state file magic.
const MAGIC: u32 = 0x6767_7371;
/// The sequence-state file version this layout describes.
const VERSION: u32 = 4;
/// Most layers a cache may declare (large models have ~100).
const MAX_LAYERS: u32 = 4096;

/// Why a state file was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum LayoutError {
    /// The file ends before a field the layout needs.
    #[error("the file ends inside {0}")]
    Short(&'static str),
    /// A field holds a value the prefix's state cannot have.
    #[error("{0}")]
    Wrong(String),
    /// Bytes follow the last cache.
    #[error("{0} bytes after the state")]
    Trailing(usize),
}

/// A cursor over the file's bytes that never reads past them.
struct Cursor<'a> {
    rest: &'a [u8],
}

impl<'a> Cursor<'a> {
    fn take(&mut self, n: usize, what: &'static str) -> Result<&'a [u8], LayoutError> {
        let (head, rest) = self
            .rest
            .split_at_checked(n)
            .ok_or(LayoutError::Short(what))?;
        self.rest = rest;
        Ok(head)
    }

    fn u32(&mut self, what: &'static str) -> Result<u32, LayoutError> {
        let bytes = self.take(4, what)?;
        Ok(u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]))
    }

    fn u64(&mut self, what: &'static str) -> Result<u64, LayoutError> {
        let bytes = self.take(8, what)?;
        let mut out = [0_u8; 8];
        out.copy_from_slice(bytes);
        Ok(u64::from_le_bytes(out))
    }

    /// Skips `count` items of `size` bytes each.
    fn skip(&mut self, size: u64, count: u64, what: &'static str) -> Result<(), LayoutError> {
        let n = size
            .checked_mul(count)
            .and_then(|n| usize::try_from(n).ok())
            .ok_or(LayoutError::Short(what))?;
        self.take(n, what).map(|_| ())
    }
}

fn wrong(text: impl Into<String>) -> LayoutError {
    LayoutError::Wrong(text.into())
}

/// Checks that `bytes`, a whole sequence-state file of a model with `caches` KV caches, holds
/// exactly `tokens` and the KV cells of their positions `0..tokens.len()`, laid out so that
/// llama.cpp's reader stays inside the file.
pub(crate) fn check(bytes: &[u8], tokens: &[i32], caches: usize) -> Result<(), LayoutError> {
    if caches == 0 {
        return Err(wrong("a model without a KV cache"));
    }
    let mut at = Cursor { rest: bytes };
    let magic = at.u32("the magic")?;
    let version = at.u32("the version")?;
    if magic != MAGIC || version != VERSION {
        return Err(wrong(format!(
            "magic {magic:08x} version {version}, not a version-{VERSION} sequence state"
        )));
    }
    let count = at.u32("the token count")?;
    if usize::try_from(count).ok() != Some(tokens.len()) {
        return Err(wrong(format!(
            "{count} tokens where the prefix has {}",
            tokens.len()
        )));
    }
    let stored = at.take(tokens.len() * 4, "the tokens")?;
    let same = stored
        .chunks_exact(4)
        .zip(tokens)
        .all(|(b, t)| i32::from_le_bytes([b[0], b[1], b[2], b[3]]) == *t);
    if !same {
        return Err(wrong("the tokens differ from the prefix's"));
    }
    for cache in 0..caches {
        // The first cache is the full-attention one: it holds every position. A later one
        // (sliding-window layers) may hold only the last positions.
        kv_cache(&mut at, count, cache == 0)?;
    }
    if !at.rest.is_empty() {
        return Err(LayoutError::Trailing(at.rest.len()));
    }
    Ok(())
}

/// One KV cache's part of the file.
fn kv_cache(at: &mut Cursor<'_>, tokens: u32, full: bool) -> Result<(), LayoutError> {
    let streams = at.u32("the stream count")?;
    if streams != 1 {
        return Err(wrong(format!("{streams} streams where one is written")));
    }
    let cells = at.u32("the cell count")?;
    if cells > tokens || (full && cells != tokens) || (cells == 0 && tokens > 0) {
        return Err(wrong(format!(
            "{cells} cells for a prefix of {tokens} tokens"
        )));
    }
    // Positions ascend to the prefix's last; the full cache's start at 0.
    for expected in tokens - cells..tokens {
        let position = at.u32("a cell's position")?;
        let sequences = at.u32("a cell's sequence count")?;
        if position != expected || sequences != 1 {
            return Err(wrong(format!(
                "a cell at position {position} with {sequences} sequences where position \
                 {expected} with one is expected"
            )));
        }
        at.skip(4, 1, "a cell's sequence")?;
    }
    let v_transposed = at.u32("the V layout")?;
    let layers = at.u32("the layer count")?;
    if v_transposed > 1 || layers == 0 || layers > MAX_LAYERS {
        return Err(wrong(format!(
            "V layout {v_transposed} with {layers} layers"
        )));
    }
    at.skip(4, 2, "the rotation sizes")?;
    let cells = u64::from(cells);
    for _ in 0..layers {
        at.u32("a K type")?;
        let row = at.u64("a K row size")?;
        at.skip(row, cells, "K rows")?;
    }
    for _ in 0..layers {
        at.u32("a V type")?;
        if v_transposed == 0 {
            let row = at.u64("a V row size")?;
            at.skip(row, cells, "V rows")?;
        } else {
            let element = at.u32("a V element size")?;
            let width = at.u32("a V width")?;
            at.skip(u64::from(element) * u64::from(width), cells, "V elements")?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A state file as llama.cpp writes it: `caches` lists each cache's cell count.
    fn file(tokens: &[i32], caches: &[u32], transposed: bool) -> Vec<u8> {
        let mut out = Vec::new();
        let u32s = |out: &mut Vec<u8>, values: &[u32]| {
            for v in values {
                out.extend(v.to_le_bytes());
            }
        };
        u32s(&mut out, &[MAGIC, VERSION, tokens.len() as u32]);
        for t in tokens {
            out.extend(t.to_le_bytes());
        }
        for &cells in caches {
            u32s(&mut out, &[1, cells]);
            for i in 0..cells {
                let position = tokens.len() as u32 - cells + i;
                u32s(&mut out, &[position, 1, 3]);
            }
            u32s(&mut out, &[u32::from(transposed), 2, 0, 0]);
            for _ in 0..2 {
                u32s(&mut out, &[1]);
                out.extend(6_u64.to_le_bytes());
                out.extend(vec![7_u8; 6 * cells as usize]);
            }
            for _ in 0..2 {
                u32s(&mut out, &[1]);
                if transposed {
                    u32s(&mut out, &[2, 3]);
                } else {
                    out.extend(6_u64.to_le_bytes());
                }
                out.extend(vec![9_u8; 6 * cells as usize]);
            }
        }
        out
    }

    #[test]
    fn a_whole_state_is_accepted_in_either_v_layout() {
        let tokens = [2, 10, 11, 12, 13];
        assert_eq!(check(&file(&tokens, &[5], false), &tokens, 1), Ok(()));
        assert_eq!(check(&file(&tokens, &[5, 3], false), &tokens, 2), Ok(()));
        assert_eq!(check(&file(&tokens, &[5, 5], true), &tokens, 2), Ok(()));
        assert!(
            check(&file(&tokens, &[5], false), &tokens, 2).is_err(),
            "a model with two caches, a file with one"
        );
    }

    #[test]
    fn a_state_cut_anywhere_is_refused() {
        let tokens = [2, 10, 11, 12, 13];
        let whole = file(&tokens, &[5, 3], true);
        for cut in 0..whole.len() {
            assert!(
                check(&whole[..cut], &tokens, 2).is_err(),
                "cut at {cut} of {}",
                whole.len()
            );
        }
        let mut longer = whole.clone();
        longer.push(0);
        assert!(check(&longer, &tokens, 2).is_err(), "a byte too many");
    }

    #[test]
    fn a_state_of_other_tokens_or_cells_is_refused() {
        let tokens = [2, 10, 11, 12, 13];
        assert!(check(&file(&tokens, &[5], false), &[2, 10, 11, 12, 14], 1).is_err());
        assert!(check(&file(&tokens, &[5], false), &[2, 10, 11, 12], 1).is_err());
        assert!(
            check(&file(&tokens, &[4], false), &tokens, 1).is_err(),
            "full cache short"
        );
        assert!(
            check(&file(&tokens, &[5, 3, 3], false), &tokens, 2).is_err(),
            "a cache too many"
        );
        let mut huge_row = file(&tokens, &[5], false);
        // The first K row size, after the header, tokens, counts, cells and four fields.
        let at = 12 + 20 + 8 + 5 * 12 + 16 + 4;
        huge_row[at..at + 8].copy_from_slice(&u64::MAX.to_le_bytes());
        assert!(matches!(
            check(&huge_row, &tokens, 1),
            Err(LayoutError::Short(_))
        ));
        let mut moved = file(&tokens, &[5], false);
        moved[12 + 20 + 8] = 1;
        assert!(
            check(&moved, &tokens, 1).is_err(),
            "a cell at the wrong position"
        );
    }
}
