//! GGUF files read and rewritten just far enough to cut a model down to its first blocks: the
//! *reading model* tool choice takes text vectors from (see `reading.rs`).
//!
//! Tool choice reads a request best from the model's middle layers (see `reading.rs`).
//! llama.cpp returns only the final hidden state, and its evaluation callback is not
//! reachable from safe Rust; but a GGUF whose `{arch}.block_count` says 8 and which carries
//! only blocks 0–7 *is* that middle layer, with llama.cpp's output norm on top. So this module copies a GGUF: every metadata entry (the
//! block count changed, per-block arrays cut to the new count; Gemma 3 renamed to its
//! embedding sibling, see [`first_blocks`]) and every tensor but those of the dropped blocks,
//! byte for byte — no dequantizing, no knowledge of tensor types beyond their offsets.
//!
//! The input is a file the user chose, so the parser bounds every length it reads (a corrupt
//! file is an error, not an allocation of whatever its header claims), and the output is
//! written to a temporary name and renamed into place.

use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::Path;

/// What went wrong reading or writing a GGUF.
#[derive(Debug, thiserror::Error)]
pub(crate) enum GgufError {
    /// Reading or writing failed.
    #[error("{0}")]
    Io(#[from] io::Error),
    /// The file is not a GGUF this module understands.
    #[error("not a GGUF this reader understands: {0}")]
    Format(String),
}

/// The GGUF value types (the specification's numbering).
const TYPE_U8: u32 = 0;
const TYPE_I8: u32 = 1;
const TYPE_U16: u32 = 2;
const TYPE_I16: u32 = 3;
const TYPE_U32: u32 = 4;
const TYPE_I32: u32 = 5;
const TYPE_F32: u32 = 6;
const TYPE_BOOL: u32 = 7;
const TYPE_STRING: u32 = 8;
const TYPE_ARRAY: u32 = 9;
const TYPE_U64: u32 = 10;
const TYPE_I64: u32 = 11;
const TYPE_F64: u32 = 12;

/// Longest string (a key, a token, a tensor name) the reader accepts.
const MAX_STRING: u64 = 1 << 24;
/// Most items in one array (Gemma's vocabulary is 262,144 tokens).
const MAX_ARRAY: u64 = 1 << 24;
/// Most metadata entries and tensors.
const MAX_ENTRIES: u64 = 1 << 20;
/// ggml's most dimensions per tensor.
const MAX_DIMS: u32 = 4;
/// The alignment of tensor data when the file does not set `general.alignment`.
const DEFAULT_ALIGNMENT: u64 = 32;

/// A metadata value, kept as the bytes it was written in (items separately for arrays, so
/// a per-block array can be cut).
#[derive(Debug, Clone, PartialEq)]
enum Value {
    /// Any non-array value: its type and its encoded bytes.
    Plain(u32, Vec<u8>),
    /// An array: its item type and each item's encoded bytes.
    Array(u32, Vec<Vec<u8>>),
}

#[derive(Debug, Clone, PartialEq)]
struct Entry {
    key: String,
    value: Value,
}

#[derive(Debug, Clone, PartialEq)]
struct TensorInfo {
    name: String,
    dims: Vec<u64>,
    kind: u32,
    offset: u64,
}

/// A GGUF header: everything before the tensor data.
#[derive(Debug, Clone, PartialEq)]
struct Header {
    version: u32,
    entries: Vec<Entry>,
    tensors: Vec<TensorInfo>,
    /// Where tensor data starts in the file.
    data_start: u64,
}

/// Writes to `dst` a copy of the GGUF at `src` that keeps only its first `blocks` blocks.
///
/// # Errors
/// [`GgufError::Format`] when `src` is not a GGUF of a known layout or has fewer blocks than
/// asked for, [`GgufError::Io`] when reading or writing fails.
pub(crate) fn first_blocks(src: &Path, dst: &Path, blocks: u32) -> Result<(), GgufError> {
    let file = File::open(src)?;
    let len = file.metadata()?.len();
    let mut reader = BufReader::new(file);
    let mut header = read_header(&mut reader)?;
    let alignment = alignment(&header)?;
    let arch = string_value(&header, "general.architecture")
        .ok_or_else(|| GgufError::Format("no general.architecture".to_owned()))?;
    let count_key = format!("{arch}.block_count");
    let had = u32_value(&header, &count_key)
        .ok_or_else(|| GgufError::Format(format!("no {count_key}")))?;
    if blocks == 0 || blocks > had {
        return Err(GgufError::Format(format!(
            "asked for {blocks} of its {had} blocks"
        )));
    }
    let prefix = format!("{arch}.");
    // Gemma 3's graph computes the whole vocabulary's logits for every token in embedding
    // mode (262,144 × 640 per token), most of a request's reading; its embedding
    // sibling's graph is the same blocks without that head, and several times faster. It
    // attends both ways (llama.cpp evaluates a model without a KV cache as an encoder), so
    // its states are not quite the causal model's; tool choice beside the router chooses as
    // well with either.
    let renamed = (arch == "gemma3").then_some(("gemma-embedding", "gemma-embedding."));
    for entry in &mut header.entries {
        if let Some((new_arch, new_prefix)) = renamed {
            if entry.key == "general.architecture" {
                entry.value = Value::Plain(TYPE_STRING, string_bytes(new_arch));
            } else if let Some(rest) = entry.key.strip_prefix(&prefix) {
                entry.key = format!("{new_prefix}{rest}");
            }
        }
        if entry.key == count_key
            || renamed.is_some_and(|(_, p)| entry.key == format!("{p}block_count"))
        {
            entry.value = Value::Plain(TYPE_U32, blocks.to_le_bytes().to_vec());
        } else if let Value::Array(_, items) = &mut entry.value
            && (entry.key.starts_with(&prefix)
                || renamed.is_some_and(|(_, p)| entry.key.starts_with(p)))
            && items.len() == had as usize
        {
            // A per-block setting (head counts, window flags): one item per block.
            items.truncate(blocks as usize);
        }
    }
    let sizes = stored_sizes(&header, len)?;
    let kept: Vec<(TensorInfo, u64)> = header
        .tensors
        .iter()
        .cloned()
        .zip(sizes)
        .filter(|(tensor, _)| block_of(&tensor.name).is_none_or(|block| block < blocks))
        .collect();
    let mut offset = 0;
    let mut tensors = Vec::with_capacity(kept.len());
    for (tensor, size) in &kept {
        tensors.push(TensorInfo {
            offset,
            ..tensor.clone()
        });
        offset = align(offset + size, alignment);
    }
    let out = Header {
        version: header.version,
        entries: header.entries,
        tensors,
        data_start: 0,
    };
    let temporary = dst.with_extension(format!("tmp{}", std::process::id()));
    let written = (|| -> Result<(), GgufError> {
        let mut writer = BufWriter::new(File::create(&temporary)?);
        let header_len = write_header(&mut writer, &out)?;
        pad(&mut writer, align(header_len, alignment) - header_len)?;
        let mut at = 0;
        for ((tensor, size), placed) in kept.iter().zip(&out.tensors) {
            pad(&mut writer, placed.offset - at)?;
            reader.seek(SeekFrom::Start(header.data_start + tensor.offset))?;
            let copied = io::copy(&mut (&mut reader).take(*size), &mut writer)?;
            if copied != *size {
                return Err(GgufError::Format(format!("{} is cut short", tensor.name)));
            }
            at = placed.offset + size;
        }
        writer
            .into_inner()
            .map_err(|e| e.into_error())?
            .sync_all()?;
        std::fs::rename(&temporary, dst)?;
        Ok(())
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    written
}

/// A string value's encoding: its length and its bytes.
fn string_bytes(text: &str) -> Vec<u8> {
    let mut out = (text.len() as u64).to_le_bytes().to_vec();
    out.extend(text.as_bytes());
    out
}

/// The block a tensor belongs to (`blk.7.attn_q.weight` → 7), if any.
fn block_of(name: &str) -> Option<u32> {
    name.strip_prefix("blk.")?.split('.').next()?.parse().ok()
}

/// Each tensor's bytes as stored: up to the next tensor's data (or the end of the file), so
/// the alignment padding after it comes along.
fn stored_sizes(header: &Header, file_len: u64) -> Result<Vec<u64>, GgufError> {
    let data_len = file_len
        .checked_sub(header.data_start)
        .ok_or_else(|| GgufError::Format("the data section is missing".to_owned()))?;
    let mut starts: Vec<u64> = header.tensors.iter().map(|t| t.offset).collect();
    starts.sort_unstable();
    starts.dedup();
    header
        .tensors
        .iter()
        .map(|tensor| {
            let end = starts
                .iter()
                .find(|&&start| start > tensor.offset)
                .copied()
                .unwrap_or(data_len);
            if tensor.offset > data_len || end > data_len {
                return Err(GgufError::Format(format!(
                    "{} lies past the end of the file",
                    tensor.name
                )));
            }
            Ok(end - tensor.offset)
        })
        .collect()
}

fn align(offset: u64, alignment: u64) -> u64 {
    offset.div_ceil(alignment) * alignment
}

fn alignment(header: &Header) -> Result<u64, GgufError> {
    match u32_value(header, "general.alignment") {
        None => Ok(DEFAULT_ALIGNMENT),
        Some(a) if a > 0 && a.is_power_of_two() => Ok(u64::from(a)),
        Some(a) => Err(GgufError::Format(format!("alignment {a}"))),
    }
}

fn find<'a>(header: &'a Header, key: &str) -> Option<&'a Value> {
    header
        .entries
        .iter()
        .find(|entry| entry.key == key)
        .map(|entry| &entry.value)
}

fn u32_value(header: &Header, key: &str) -> Option<u32> {
    match find(header, key)? {
        Value::Plain(TYPE_U32, bytes) => {
            Some(u32::from_le_bytes(bytes.as_slice().try_into().ok()?))
        }
        _ => None,
    }
}

fn string_value(header: &Header, key: &str) -> Option<String> {
    match find(header, key)? {
        // A string value is its length (8 bytes) and its bytes.
        Value::Plain(TYPE_STRING, bytes) => String::from_utf8(bytes.get(8..)?.to_vec()).ok(),
        _ => None,
    }
}

/// A reader that counts the bytes it has read, so the header's end is known.
struct Counting<R> {
    inner: R,
    read: u64,
}

impl<R: Read> Counting<R> {
    fn bytes(&mut self, n: u64) -> Result<Vec<u8>, GgufError> {
        let mut buffer = Vec::new();
        let got = (&mut self.inner).take(n).read_to_end(&mut buffer)?;
        if got as u64 != n {
            return Err(GgufError::Format("the header is cut short".to_owned()));
        }
        self.read += n;
        Ok(buffer)
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], GgufError> {
        let bytes = self.bytes(N as u64)?;
        bytes
            .try_into()
            .map_err(|_| GgufError::Format("the header is cut short".to_owned()))
    }

    fn u32(&mut self) -> Result<u32, GgufError> {
        Ok(u32::from_le_bytes(self.array()?))
    }

    fn u64(&mut self) -> Result<u64, GgufError> {
        Ok(u64::from_le_bytes(self.array()?))
    }

    fn bounded(&mut self, limit: u64, what: &str) -> Result<u64, GgufError> {
        let n = self.u64()?;
        if n > limit {
            return Err(GgufError::Format(format!("{what} of {n}")));
        }
        Ok(n)
    }

    /// A string's encoding: its length and its bytes.
    fn string_bytes(&mut self) -> Result<Vec<u8>, GgufError> {
        let n = self.bounded(MAX_STRING, "a string length")?;
        let mut out = n.to_le_bytes().to_vec();
        out.extend(self.bytes(n)?);
        Ok(out)
    }

    fn string(&mut self) -> Result<String, GgufError> {
        let bytes = self.string_bytes()?;
        String::from_utf8(bytes.get(8..).unwrap_or_default().to_vec())
            .map_err(|_| GgufError::Format("a string is not UTF-8".to_owned()))
    }

    /// One value of a non-array type, as encoded.
    fn plain(&mut self, kind: u32) -> Result<Vec<u8>, GgufError> {
        match kind {
            TYPE_U8 | TYPE_I8 | TYPE_BOOL => self.bytes(1),
            TYPE_U16 | TYPE_I16 => self.bytes(2),
            TYPE_U32 | TYPE_I32 | TYPE_F32 => self.bytes(4),
            TYPE_U64 | TYPE_I64 | TYPE_F64 => self.bytes(8),
            TYPE_STRING => self.string_bytes(),
            other => Err(GgufError::Format(format!("value type {other}"))),
        }
    }
}

fn read_header(reader: &mut impl Read) -> Result<Header, GgufError> {
    let mut r = Counting {
        inner: reader,
        read: 0,
    };
    if &r.array::<4>()? != b"GGUF" {
        return Err(GgufError::Format("no GGUF magic".to_owned()));
    }
    let version = r.u32()?;
    if !(2..=3).contains(&version) {
        return Err(GgufError::Format(format!("version {version}")));
    }
    let tensor_count = r.bounded(MAX_ENTRIES, "a tensor count")?;
    let entry_count = r.bounded(MAX_ENTRIES, "a metadata count")?;
    let mut entries = Vec::new();
    for _ in 0..entry_count {
        let key = r.string()?;
        let kind = r.u32()?;
        let value = if kind == TYPE_ARRAY {
            let item = r.u32()?;
            if item == TYPE_ARRAY {
                return Err(GgufError::Format(format!("{key} nests arrays")));
            }
            let n = r.bounded(MAX_ARRAY, "an array length")?;
            let mut items = Vec::new();
            for _ in 0..n {
                items.push(r.plain(item)?);
            }
            Value::Array(item, items)
        } else {
            Value::Plain(kind, r.plain(kind)?)
        };
        entries.push(Entry { key, value });
    }
    let mut tensors = Vec::new();
    for _ in 0..tensor_count {
        let name = r.string()?;
        let n_dims = r.u32()?;
        if n_dims > MAX_DIMS {
            return Err(GgufError::Format(format!("{name} has {n_dims} dimensions")));
        }
        let mut dims = Vec::new();
        for _ in 0..n_dims {
            dims.push(r.u64()?);
        }
        let kind = r.u32()?;
        let offset = r.u64()?;
        tensors.push(TensorInfo {
            name,
            dims,
            kind,
            offset,
        });
    }
    let mut header = Header {
        version,
        entries,
        tensors,
        data_start: 0,
    };
    header.data_start = align(r.read, alignment(&header)?);
    Ok(header)
}

/// Writes `header` (without the padding after it); returns the bytes written.
fn write_header(w: &mut impl Write, header: &Header) -> Result<u64, GgufError> {
    let mut n = 0_u64;
    let mut put = |w: &mut dyn Write, bytes: &[u8]| -> io::Result<()> {
        n += bytes.len() as u64;
        w.write_all(bytes)
    };
    put(w, b"GGUF")?;
    put(w, &header.version.to_le_bytes())?;
    put(w, &(header.tensors.len() as u64).to_le_bytes())?;
    put(w, &(header.entries.len() as u64).to_le_bytes())?;
    for entry in &header.entries {
        put(w, &(entry.key.len() as u64).to_le_bytes())?;
        put(w, entry.key.as_bytes())?;
        match &entry.value {
            Value::Plain(kind, bytes) => {
                put(w, &kind.to_le_bytes())?;
                put(w, bytes)?;
            }
            Value::Array(item, items) => {
                put(w, &TYPE_ARRAY.to_le_bytes())?;
                put(w, &item.to_le_bytes())?;
                put(w, &(items.len() as u64).to_le_bytes())?;
                for bytes in items {
                    put(w, bytes)?;
                }
            }
        }
    }
    for tensor in &header.tensors {
        put(w, &(tensor.name.len() as u64).to_le_bytes())?;
        put(w, tensor.name.as_bytes())?;
        put(w, &(tensor.dims.len() as u32).to_le_bytes())?;
        for dim in &tensor.dims {
            put(w, &dim.to_le_bytes())?;
        }
        put(w, &tensor.kind.to_le_bytes())?;
        put(w, &tensor.offset.to_le_bytes())?;
    }
    Ok(n)
}

fn pad(w: &mut impl Write, n: u64) -> io::Result<()> {
    io::copy(&mut io::repeat(0).take(n), w).map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn string(text: &str) -> Vec<u8> {
        let mut out = (text.len() as u64).to_le_bytes().to_vec();
        out.extend(text.as_bytes());
        out
    }

    /// A small GGUF of `blocks` blocks, two tensors each plus two outside any block, every
    /// tensor's data a distinct byte pattern of an odd length (so alignment padding shows).
    fn model(blocks: u32) -> (Header, Vec<u8>) {
        model_of("gemma3", blocks)
    }

    fn model_of(arch: &str, blocks: u32) -> (Header, Vec<u8>) {
        let mut names = vec!["token_embd.weight".to_owned()];
        for b in 0..blocks {
            names.push(format!("blk.{b}.attn_q.weight"));
            names.push(format!("blk.{b}.ffn_up.weight"));
        }
        names.push("output_norm.weight".to_owned());
        let mut data = Vec::new();
        let mut tensors = Vec::new();
        for (i, name) in names.iter().enumerate() {
            data.resize(align(data.len() as u64, 32) as usize, 0);
            tensors.push(TensorInfo {
                name: name.clone(),
                dims: vec![3, i as u64 + 1],
                kind: 8,
                offset: data.len() as u64,
            });
            data.extend(std::iter::repeat_n(i as u8 + 1, 3 * (i + 1) + 7));
        }
        let header = Header {
            version: 3,
            entries: vec![
                Entry {
                    key: "general.architecture".to_owned(),
                    value: Value::Plain(TYPE_STRING, string(arch)),
                },
                Entry {
                    key: format!("{arch}.block_count"),
                    value: Value::Plain(TYPE_U32, blocks.to_le_bytes().to_vec()),
                },
                Entry {
                    key: format!("{arch}.attention.head_count"),
                    value: Value::Array(
                        TYPE_U32,
                        (0..blocks)
                            .map(|b| (b + 4).to_le_bytes().to_vec())
                            .collect(),
                    ),
                },
                Entry {
                    key: "tokenizer.ggml.tokens".to_owned(),
                    value: Value::Array(
                        TYPE_STRING,
                        (0..blocks).map(|b| string(&format!("t{b}"))).collect(),
                    ),
                },
            ],
            tensors,
            data_start: 0,
        };
        let mut file = Vec::new();
        let n = write_header(&mut file, &header).expect("header");
        file.resize(align(n, 32) as usize, 0);
        file.extend(&data);
        (header, file)
    }

    fn tensor_bytes(file: &[u8]) -> Vec<(String, Vec<u8>)> {
        let header = read_header(&mut &file[..]).expect("read back");
        let sizes = stored_sizes(&header, file.len() as u64).expect("sizes");
        header
            .tensors
            .iter()
            .zip(sizes)
            .map(|(t, size)| {
                let start = (header.data_start + t.offset) as usize;
                let bytes = file[start..start + size as usize].to_vec();
                // The stored size includes padding; the data is the non-zero run.
                let data = bytes.into_iter().take_while(|&b| b != 0).collect();
                (t.name.clone(), data)
            })
            .collect()
    }

    #[test]
    fn the_first_blocks_keep_their_tensors_byte_for_byte_and_the_rest_go() {
        // Gemma 3 becomes its embedding sibling; another architecture keeps its name.
        for (arch, cut_arch) in [("gemma3", "gemma-embedding"), ("llama", "llama")] {
            let dir = tempfile::tempdir().expect("dir");
            let (_, file) = model_of(arch, 5);
            let src = dir.path().join("m.gguf");
            let dst = dir.path().join("m2.gguf");
            std::fs::write(&src, &file).expect("write");
            first_blocks(&src, &dst, 2).expect("cut");
            let out = std::fs::read(&dst).expect("read");
            let header = read_header(&mut &out[..]).expect("parse");
            assert_eq!(
                string_value(&header, "general.architecture").as_deref(),
                Some(cut_arch)
            );
            assert_eq!(
                u32_value(&header, &format!("{cut_arch}.block_count")),
                Some(2)
            );
            assert!(find(&header, &format!("{arch}.block_count")).is_none() || arch == cut_arch);
            assert_eq!(
                find(&header, &format!("{cut_arch}.attention.head_count")),
                Some(&Value::Array(
                    TYPE_U32,
                    vec![4_u32.to_le_bytes().to_vec(), 5_u32.to_le_bytes().to_vec()]
                )),
                "a per-block array is cut to the new count"
            );
            let Some(Value::Array(_, tokens)) = find(&header, "tokenizer.ggml.tokens") else {
                panic!("tokens kept");
            };
            assert_eq!(
                tokens.len(),
                5,
                "an array outside the architecture's keys is kept whole"
            );
            let before = tensor_bytes(&file);
            let after = tensor_bytes(&out);
            let expected: Vec<_> = before
                .into_iter()
                .filter(|(name, _)| block_of(name).is_none_or(|block| block < 2))
                .collect();
            assert_eq!(after, expected);
            assert_eq!(
                after.len(),
                2 + 2 * 2,
                "embeddings, norm and two blocks of two"
            );
            assert!(header.tensors.iter().all(|t| t.offset % 32 == 0), "aligned");
            let leftovers: Vec<_> = std::fs::read_dir(dir.path())
                .expect("list")
                .filter_map(Result::ok)
                .map(|e| e.file_name())
                .collect();
            assert_eq!(leftovers.len(), 2, "no temporary file left: {leftovers:?}");
        }
    }

    #[test]
    fn more_blocks_than_the_model_has_or_none_are_refused() {
        let dir = tempfile::tempdir().expect("dir");
        let (_, file) = model(3);
        let src = dir.path().join("m.gguf");
        std::fs::write(&src, &file).expect("write");
        for blocks in [0, 4] {
            let err =
                first_blocks(&src, &dir.path().join("out.gguf"), blocks).expect_err("refused");
            assert!(err.to_string().contains("of its 3 blocks"), "{err}");
        }
        assert!(!dir.path().join("out.gguf").exists());
    }

    #[test]
    fn corrupt_headers_are_errors_not_allocations() {
        let (_, file) = model(2);
        // Cut anywhere inside the header: an error, never a panic.
        let header = read_header(&mut &file[..]).expect("parse");
        let header_len = write_header(&mut Vec::new(), &header).expect("length") as usize;
        for cut in (0..header_len).step_by(7) {
            assert!(read_header(&mut &file[..cut]).is_err(), "cut at {cut}");
        }
        // A tensor count claiming billions.
        let mut huge = file.clone();
        huge[8..16].copy_from_slice(&u64::MAX.to_le_bytes());
        let err = read_header(&mut &huge[..]).expect_err("refused");
        assert!(err.to_string().contains("a tensor count"), "{err}");
        let mut wrong = file;
        wrong[0] = b'X';
        assert!(read_header(&mut &wrong[..]).is_err());
    }

    #[test]
    fn block_numbers_are_read_from_tensor_names() {
        assert_eq!(block_of("blk.7.attn_q.weight"), Some(7));
        assert_eq!(block_of("blk.17.ffn_down.weight"), Some(17));
        assert_eq!(block_of("token_embd.weight"), None);
        assert_eq!(block_of("blk.x.weight"), None);
    }
}
