//! The size cap on results sent back to the model ([`ResultCap`]).
//!
//! On-device models have small context windows, so every result is capped (2 KB by default)
//! before it goes back. The cap counts real UTF-8 bytes of the compact JSON (a Korean syllable
//! is 3 bytes), the output is always valid JSON, and a character is never split.
//!
//! Over the cap, an `ok` result keeps what fits rather than nothing, cutting in this order:
//! long strings (over 80 characters, longest first, down to 80 — so a list keeps all its items
//! and their ids), then array items from the end (largest array first), then any string.
//! Each cut is recorded under `"_truncated"` with how much was shown of how much
//! (`{"items": {"shown": 3, "total": 20}}`, for strings in characters), and a `"_hint"` tells
//! the model to ask a single-item query tool for details. Only when even that
//! cannot fit does the data become the reference spec's `{"_truncated": true, "_hint": "…"}`.
//! An `error` or `cancelled` result over the cap has its `reason` cut.

use std::borrow::Cow;

use serde_json::{Map, Value};

use super::result::ToolResult;

/// The default cap: 2 KB, as in the reference spec.
pub const DEFAULT_MAX_BYTES: usize = 2048;

/// The smallest cap honoured: below it not even the fallback envelope fits.
const MIN_MAX_BYTES: usize = 64;

/// How big a result may be, and what to tell the model when it was cut.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResultCap {
    max_bytes: usize,
    hint: Cow<'static, str>,
}

impl Default for ResultCap {
    fn default() -> Self {
        Self::new(DEFAULT_MAX_BYTES)
    }
}

impl ResultCap {
    /// A cap of `max_bytes` UTF-8 bytes (at least 64) with the default hint
    /// ([`Messages::truncated_hint`](crate::Messages::truncated_hint)).
    pub fn new(max_bytes: usize) -> Self {
        Self {
            max_bytes: max_bytes.max(MIN_MAX_BYTES),
            hint: crate::messages::Messages::default().truncated_hint,
        }
    }

    /// Replaces the hint, e.g. to name the app's own single-item tool.
    pub fn with_hint(mut self, hint: impl Into<Cow<'static, str>>) -> Self {
        self.hint = hint.into();
        self
    }

    /// The cap in bytes.
    pub fn max_bytes(&self) -> usize {
        self.max_bytes
    }

    /// Encodes `result` within the cap.
    pub fn apply(&self, result: &ToolResult) -> Capped {
        let value = result.to_value();
        let json = value.to_string();
        if json.len() <= self.max_bytes {
            return Capped {
                value,
                json,
                truncated: false,
            };
        }
        let value = match result {
            ToolResult::Ok { data } => self.cap_data(data),
            ToolResult::Error(_) | ToolResult::Cancelled { .. } => self.cap_reason(value),
        };
        let json = value.to_string();
        Capped {
            value,
            json,
            truncated: true,
        }
    }

    /// Cuts the largest arrays and strings of `data` until the envelope fits.
    fn cap_data(&self, data: &Value) -> Value {
        let mut data = match data {
            Value::Object(map) => map.clone(),
            // Markers need an object to live in; a bare array or string is wrapped.
            other => Map::from_iter([("_value".to_owned(), other.clone())]),
        };
        let mut notes = Map::new();
        // Every pass shrinks the data (see `cut`); the limit only guards against a bug there.
        for _ in 0..MAX_PASSES {
            let envelope = self.envelope(&data, &notes);
            let size = envelope.to_string().len();
            if size <= self.max_bytes {
                return envelope;
            }
            let overshoot = size - self.max_bytes;
            let Some((path, floor)) = [
                (Cuttable::LongString, LONG_STRING_CHARS),
                (Cuttable::Array, 0),
                (Cuttable::String, 0),
            ]
            .into_iter()
            .find_map(|(kind, floor)| largest(&data, kind).map(|path| (path, floor))) else {
                break;
            };
            let Some(node) = pointer_mut(&mut data, &path) else {
                break;
            };
            let Some((shown, total)) = cut(node, overshoot, floor) else {
                break;
            };
            let key = path.join("/");
            let total = match notes.get(&key) {
                // A node cut twice keeps its original total.
                Some(previous) => previous["total"].as_u64().unwrap_or(total as u64),
                None => total as u64,
            };
            notes.insert(key, serde_json::json!({ "shown": shown, "total": total }));
        }
        let fallback = serde_json::json!({
            "status": "ok",
            "data": { "_truncated": true, "_hint": self.hint },
        });
        if fallback.to_string().len() <= self.max_bytes {
            fallback
        } else {
            serde_json::json!({ "status": "ok", "data": { "_truncated": true } })
        }
    }

    fn envelope(&self, data: &Map<String, Value>, notes: &Map<String, Value>) -> Value {
        let mut data = data.clone();
        if !notes.is_empty() {
            data.insert("_truncated".into(), Value::Object(notes.clone()));
            data.insert("_hint".into(), Value::String(self.hint.to_string()));
        }
        serde_json::json!({ "status": "ok", "data": data })
    }

    /// Cuts the `reason` of an error or cancelled envelope to fit.
    fn cap_reason(&self, mut envelope: Value) -> Value {
        let size = envelope.to_string().len();
        if let Some(reason) = envelope.get_mut("reason") {
            cut(
                reason,
                size.saturating_sub(self.max_bytes),
                MIN_STRING_CHARS,
            );
        }
        envelope
    }
}

/// A result encoded within a cap.
#[derive(Debug, Clone, PartialEq)]
pub struct Capped {
    /// The capped envelope as a value (what a chat session receives).
    pub value: Value,
    /// The same envelope as compact JSON, at most the cap's size.
    pub json: String,
    /// `true` when something was cut.
    pub truncated: bool,
}

impl ToolResult {
    /// The compact wire JSON of this result, cut to at most `max_bytes` UTF-8 bytes (see
    /// [`ResultCap`] for how).
    pub fn encode(&self, max_bytes: usize) -> String {
        ResultCap::new(max_bytes).apply(self).json
    }
}

/// More cutting passes than any real result needs.
const MAX_PASSES: usize = 10_000;
/// Strings longer than this are shortened (to this length) before any array item is dropped.
const LONG_STRING_CHARS: usize = 80;
/// Below this many characters a string is not worth cutting further.
const MIN_STRING_CHARS: usize = 8;

/// What a cutting pass looks for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Cuttable {
    LongString,
    Array,
    String,
}

impl Cuttable {
    fn matches(self, value: &Value) -> bool {
        match (self, value) {
            (Self::LongString, Value::String(text)) => can_cut(text, LONG_STRING_CHARS),
            (Self::String, Value::String(text)) => can_cut(text, MIN_STRING_CHARS),
            (Self::Array, Value::Array(items)) => !items.is_empty(),
            _ => false,
        }
    }
}

const ELLIPSIS: char = '…';

/// The byte length of the first `chars` characters of `text`.
fn prefix_len(text: &str, chars: usize) -> usize {
    text.char_indices()
        .nth(chars)
        .map_or(text.len(), |(i, _)| i)
}

/// Whether cutting `text` to no fewer than `floor` characters plus an ellipsis makes it
/// shorter. Strings already cut to their floor are not (the ellipsis is a character too).
fn can_cut(text: &str, floor: usize) -> bool {
    prefix_len(text, floor) + ELLIPSIS.len_utf8() < text.len()
}

/// The path (object keys and array indices) of the biggest node of `kind` in `data`.
fn largest(data: &Map<String, Value>, kind: Cuttable) -> Option<Vec<String>> {
    fn visit(
        value: &Value,
        kind: Cuttable,
        path: &mut Vec<String>,
        best: &mut Option<(usize, Vec<String>)>,
    ) {
        if kind.matches(value) {
            let size = value.to_string().len();
            if best.as_ref().is_none_or(|(best_size, _)| size > *best_size) {
                *best = Some((size, path.clone()));
            }
        }
        match value {
            Value::Array(items) => {
                for (index, item) in items.iter().enumerate() {
                    path.push(index.to_string());
                    visit(item, kind, path, best);
                    path.pop();
                }
            }
            Value::Object(map) => {
                for (key, item) in map {
                    path.push(key.clone());
                    visit(item, kind, path, best);
                    path.pop();
                }
            }
            _ => {}
        }
    }
    let mut best = None;
    let mut path = Vec::new();
    for (key, value) in data {
        path.push(key.clone());
        visit(value, kind, &mut path, &mut best);
        path.pop();
    }
    best.map(|(_, path)| path)
}

fn pointer_mut<'a>(data: &'a mut Map<String, Value>, path: &[String]) -> Option<&'a mut Value> {
    let (first, rest) = path.split_first()?;
    let mut node = data.get_mut(first)?;
    for step in rest {
        node = match node {
            Value::Object(map) => map.get_mut(step)?,
            Value::Array(items) => items.get_mut(step.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(node)
}

/// Shrinks an array or string by at least `overshoot` bytes of JSON where it can (a string
/// never below `floor` characters), and always by at least one element or character.
/// Returns (shown, total) in elements or characters.
fn cut(node: &mut Value, overshoot: usize, floor: usize) -> Option<(usize, usize)> {
    match node {
        Value::Array(items) => {
            let total = items.len();
            let mut removed = 0;
            while let Some(item) = items.pop() {
                removed += item.to_string().len() + 1;
                if removed >= overshoot {
                    break;
                }
            }
            Some((items.len(), total))
        }
        Value::String(text) => {
            if !can_cut(text, floor) {
                return None;
            }
            let total = text.chars().count();
            // The prefix plus the ellipsis must be shorter than the text: progress is certain.
            let longest = text.len() - ELLIPSIS.len_utf8() - 1;
            let wanted = text.len().saturating_sub(overshoot + ELLIPSIS.len_utf8());
            let mut end = wanted.max(prefix_len(text, floor)).min(longest);
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            text.truncate(end);
            let shown = text.chars().count();
            text.push(ELLIPSIS);
            Some((shown, total))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn items(n: usize, summary: &str) -> Value {
        let items: Vec<Value> = (0..n)
            .map(|i| json!({"id": format!("build.habit-{i}"), "title": "아침 걷기", "summary": summary}))
            .collect();
        json!({"count": n, "items": items})
    }

    #[test]
    fn small_results_pass_untouched() {
        let result = ToolResult::ok(json!({"count": 0, "items": []}));
        let capped = ResultCap::default().apply(&result);
        assert!(!capped.truncated);
        assert_eq!(
            capped.json,
            r#"{"status":"ok","data":{"count":0,"items":[]}}"#
        );
        assert_eq!(result.encode(2048), capped.json);
    }

    #[test]
    fn long_arrays_keep_a_prefix_with_counts_and_a_hint() {
        let result = ToolResult::ok(items(40, "매일 아침 10분 동네를 걷습니다."));
        let capped = ResultCap::default().apply(&result);
        assert!(capped.truncated);
        assert!(capped.json.len() <= 2048, "{} bytes", capped.json.len());
        let data = &capped.value["data"];
        let shown = data["items"].as_array().unwrap().len();
        assert!(shown > 5 && shown < 40, "kept {shown} items");
        assert_eq!(
            data["_truncated"]["items"],
            json!({"shown": shown, "total": 40})
        );
        assert_eq!(
            data["_hint"],
            *crate::messages::Messages::default().truncated_hint
        );
        assert_eq!(data["count"], 40, "other fields are kept");
        // The encoded text round-trips to the same value.
        assert_eq!(
            serde_json::from_str::<Value>(&capped.json).unwrap(),
            capped.value
        );
    }

    #[test]
    fn korean_text_is_measured_in_utf8_bytes_and_never_split() {
        let long = "가".repeat(1000); // 3000 bytes, 1000 UTF-16 units
        let result = ToolResult::ok(json!({"note": long}));
        let capped = ResultCap::default().apply(&result);
        assert!(capped.json.len() <= 2048);
        let note = capped.value["data"]["note"].as_str().unwrap();
        assert!(note.ends_with('…'));
        assert!(note.trim_end_matches('…').chars().all(|c| c == '가'));
        let shown = note.chars().count() - 1;
        assert_eq!(
            capped.value["data"]["_truncated"]["note"],
            json!({"shown": shown, "total": 1000})
        );
        // As much as fits is kept, not a token amount.
        assert!(capped.json.len() > 1800, "{} bytes", capped.json.len());
    }

    #[test]
    fn long_texts_are_shortened_before_list_items_are_dropped() {
        let text = "매일 아침 커피를 내린 뒤 현관에서 운동화를 신고 동네 공원까지 천천히 걸어갔다가 돌아옵니다. ".repeat(4);
        let items: Vec<Value> = (1..=4)
            .map(|id| json!({"id": id, "title": "아침 걷기", "framed_text": text}))
            .collect();
        let capped = ResultCap::default().apply(&ToolResult::ok(json!({"items": items})));
        assert!(
            capped.truncated && capped.json.len() <= 2048,
            "{}",
            capped.json.len()
        );
        let kept = capped.value["data"]["items"].as_array().unwrap();
        let ids: Vec<_> = kept.iter().map(|item| item["id"].clone()).collect();
        assert_eq!(
            ids,
            [json!(1), json!(2), json!(3), json!(4)],
            "every item survives"
        );
        let total = text.chars().count();
        let note = &capped.value["data"]["_truncated"]["items/0/framed_text"];
        assert_eq!(note["total"], total);
        let shown = note["shown"].as_u64().unwrap() as usize;
        assert!((LONG_STRING_CHARS..total).contains(&shown), "shown {shown}");
    }

    #[test]
    fn every_cap_gives_valid_json_within_the_cap() {
        let result = ToolResult::ok(items(25, &"설명이 긴 요약문 ".repeat(20)));
        for max in [64, 100, 200, 333, 512, 1000, 2048, 4096] {
            let capped = ResultCap::new(max).apply(&result);
            assert!(
                capped.json.len() <= max,
                "cap {max}: {} bytes",
                capped.json.len()
            );
            let parsed: Value = serde_json::from_str(&capped.json).unwrap();
            assert_eq!(parsed["status"], "ok");
        }
    }

    #[test]
    fn strings_around_the_thresholds_always_make_progress() {
        // A cut appends an ellipsis, so a string near a threshold could stop shrinking.
        for len in 0..100 {
            for text in ["a".repeat(len), "가".repeat(len)] {
                let result = ToolResult::ok(json!({"a": text, "b": [text, text]}));
                for max in [64, 90, 150, 300] {
                    let capped = ResultCap::new(max).apply(&result);
                    assert!(capped.json.len() <= max, "len {len}, cap {max}");
                }
            }
        }
    }

    #[test]
    fn when_nothing_fits_the_reference_fallback_is_used() {
        let many: Map<String, Value> = (0..20).map(|i| (format!("k{i}"), json!(i))).collect();
        let capped = ResultCap::new(64).apply(&ToolResult::ok(Value::Object(many)));
        assert!(capped.json.len() <= 64);
        assert_eq!(capped.value["data"]["_truncated"], true);
        let with_hint = ResultCap::new(200).with_hint("짧은 힌트");
        let many: Map<String, Value> = (0..60).map(|i| (format!("k{i}"), json!(i))).collect();
        let capped = with_hint.apply(&ToolResult::ok(Value::Object(many)));
        assert_eq!(
            capped.value,
            json!({"status": "ok", "data": {"_truncated": true, "_hint": "짧은 힌트"}})
        );
    }

    #[test]
    fn error_reasons_are_cut() {
        let result = ToolResult::error("validation", "잘못된 값 ".repeat(500));
        let capped = ResultCap::default().apply(&result);
        assert!(capped.truncated && capped.json.len() <= 2048);
        assert_eq!(capped.value["code"], "validation");
        assert!(capped.value["reason"].as_str().unwrap().ends_with('…'));
    }

    #[test]
    fn non_object_data_is_wrapped_to_carry_markers() {
        let result = ToolResult::ok(Value::Array((0..1000).map(Value::from).collect()));
        let capped = ResultCap::default().apply(&result);
        assert!(capped.json.len() <= 2048);
        assert!(capped.value["data"]["_value"].is_array());
        assert_eq!(capped.value["data"]["_truncated"]["_value"]["total"], 1000);
    }
}
