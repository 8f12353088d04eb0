//! Incremental reading of the model's JSON reply (the Gemma JSON format).
//!
//! Under the grammar the model answers with one JSON object, either
//! `{"tool_calls":[…]}` or `{"response":"…"}`. [`JsonReply`] is fed the reply text as it is
//! generated and
//! - decodes the `response` string on the fly, escapes and `\uXXXX` surrogate pairs included,
//!   so the UI gets text token by token rather than when the object closes;
//! - notices when the top-level object is closed, so the turn can end without waiting for the
//!   model to emit `<end_of_turn>` (and without evaluating the whitespace it may add first);
//! - keeps the raw text, parsed with `serde_json` at the end for the tool calls.

use serde_json::Value;

use crate::llm::FunctionCall;

/// The prefix, without whitespace, after which the `response` string's content starts.
const RESPONSE_PREFIX: &str = r#"{"response":""#;

/// What the reply turned out to be, once it is complete.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum ParsedReply {
    /// A text answer (already streamed while it was decoded).
    Response(String),
    /// One or more tool calls, in order.
    ToolCalls(Vec<FunctionCall>),
}

/// Tracks one reply; see the module doc.
#[derive(Debug, Default)]
pub(crate) struct JsonReply {
    raw: String,
    scanner: Scanner,
    mode: Mode,
}

#[derive(Debug)]
enum Mode {
    /// Not yet known whether this is a `response` or something else: the non-whitespace
    /// characters seen so far.
    Undecided(String),
    /// Inside the `response` string.
    Response(StringDecoder),
    /// After the `response` string, or in any other reply: nothing more to stream.
    Rest,
}

impl Default for Mode {
    fn default() -> Self {
        Mode::Undecided(String::new())
    }
}

impl JsonReply {
    /// Feeds the next piece of reply text; returns the decoded `response` text it completes
    /// (empty when the piece holds none).
    pub(crate) fn push(&mut self, text: &str) -> String {
        self.raw.push_str(text);
        let mut delta = String::new();
        for c in text.chars() {
            let was_in_string = self.scanner.in_string;
            self.scanner.push(c);
            match &mut self.mode {
                Mode::Undecided(seen) => {
                    if was_in_string || !c.is_whitespace() {
                        seen.push(c);
                    }
                    if seen == RESPONSE_PREFIX {
                        self.mode = Mode::Response(StringDecoder::default());
                    } else if !RESPONSE_PREFIX.starts_with(seen.as_str()) {
                        self.mode = Mode::Rest;
                    }
                }
                Mode::Response(decoder) => {
                    if !decoder.push(c, &mut delta) {
                        self.mode = Mode::Rest;
                    }
                }
                Mode::Rest => {}
            }
        }
        delta
    }

    /// Whether the top-level value has been closed.
    pub(crate) fn is_complete(&self) -> bool {
        self.scanner.complete
    }

    /// Whether the reply is a `response` whose string has started (text is being streamed).
    pub(crate) fn is_response(&self) -> bool {
        matches!(self.mode, Mode::Response(_))
            || (matches!(self.mode, Mode::Rest) && self.raw_compact_starts_with_response())
    }

    fn raw_compact_starts_with_response(&self) -> bool {
        let compact: String = self
            .raw
            .chars()
            .filter(|c| !c.is_whitespace())
            .take(13)
            .collect();
        compact == RESPONSE_PREFIX
    }

    /// The text generated so far.
    pub(crate) fn raw(&self) -> &str {
        &self.raw
    }

    /// Parses the complete reply.
    pub(crate) fn parse(&self) -> Result<ParsedReply, String> {
        parse_reply(&self.raw)
    }
}

/// Parses a complete reply of the Gemma JSON format.
pub(crate) fn parse_reply(raw: &str) -> Result<ParsedReply, String> {
    let value: Value = serde_json::from_str(raw).map_err(|e| format!("{e} in {raw:?}"))?;
    if let Some(text) = value.get("response").and_then(Value::as_str) {
        return Ok(ParsedReply::Response(text.to_owned()));
    }
    let Some(calls) = value.get("tool_calls").and_then(Value::as_array) else {
        return Err(format!("neither `response` nor `tool_calls` in {raw:?}"));
    };
    calls
        .iter()
        .map(|call| {
            let name = call
                .get("name")
                .and_then(Value::as_str)
                .ok_or_else(|| format!("a tool call without a name in {raw:?}"))?;
            let args = call
                .get("arguments")
                .cloned()
                .unwrap_or(Value::Object(Default::default()));
            Ok(FunctionCall {
                name: name.to_owned(),
                args,
            })
        })
        .collect::<Result<Vec<_>, String>>()
        .map(ParsedReply::ToolCalls)
}

/// Brace depth outside strings, to see when the top-level value closes.
#[derive(Debug, Default)]
struct Scanner {
    depth: usize,
    started: bool,
    in_string: bool,
    escaped: bool,
    complete: bool,
}

impl Scanner {
    fn push(&mut self, c: char) {
        if self.complete {
            return;
        }
        if self.in_string {
            if self.escaped {
                self.escaped = false;
            } else if c == '\\' {
                self.escaped = true;
            } else if c == '"' {
                self.in_string = false;
            }
            return;
        }
        match c {
            '"' => self.in_string = true,
            '{' | '[' => {
                self.depth += 1;
                self.started = true;
            }
            '}' | ']' => {
                self.depth = self.depth.saturating_sub(1);
                if self.started && self.depth == 0 {
                    self.complete = true;
                }
            }
            _ => {}
        }
    }
}

/// Decodes the content of a JSON string, one character at a time.
#[derive(Debug, Default)]
struct StringDecoder {
    state: Escape,
    /// A high surrogate waiting for its low half.
    high_surrogate: Option<u32>,
}

#[derive(Debug, Default)]
enum Escape {
    #[default]
    None,
    /// After a backslash.
    Backslash,
    /// Inside `\uXXXX`: the value so far and the digits read.
    Unicode(u32, u8),
}

impl StringDecoder {
    /// Decodes `c` into `out`; returns false at the closing quote.
    fn push(&mut self, c: char, out: &mut String) -> bool {
        match self.state {
            Escape::None => match c {
                '"' => {
                    self.flush_surrogate(out);
                    return false;
                }
                '\\' => self.state = Escape::Backslash,
                c => {
                    self.flush_surrogate(out);
                    out.push(c);
                }
            },
            Escape::Backslash => {
                self.state = Escape::None;
                let decoded = match c {
                    'n' => '\n',
                    't' => '\t',
                    'r' => '\r',
                    'b' => '\u{8}',
                    'f' => '\u{c}',
                    'u' => {
                        self.state = Escape::Unicode(0, 0);
                        return true;
                    }
                    // `\"`, `\\`, `\/`; anything else is kept as written (the grammar
                    // admits no other escape).
                    other => other,
                };
                self.flush_surrogate(out);
                out.push(decoded);
            }
            Escape::Unicode(value, digits) => {
                let Some(digit) = c.to_digit(16) else {
                    // Not valid JSON; the grammar prevents it, so just drop the escape.
                    self.state = Escape::None;
                    return true;
                };
                let value = value * 16 + digit;
                if digits < 3 {
                    self.state = Escape::Unicode(value, digits + 1);
                    return true;
                }
                self.state = Escape::None;
                self.push_code_unit(value, out);
            }
        }
        true
    }

    fn push_code_unit(&mut self, unit: u32, out: &mut String) {
        match unit {
            0xD800..=0xDBFF => {
                self.flush_surrogate(out);
                self.high_surrogate = Some(unit);
            }
            0xDC00..=0xDFFF => match self.high_surrogate.take() {
                Some(high) => {
                    let code = 0x10000 + ((high - 0xD800) << 10) + (unit - 0xDC00);
                    out.push(char::from_u32(code).unwrap_or(char::REPLACEMENT_CHARACTER));
                }
                None => out.push(char::REPLACEMENT_CHARACTER),
            },
            _ => {
                self.flush_surrogate(out);
                out.push(char::from_u32(unit).unwrap_or(char::REPLACEMENT_CHARACTER));
            }
        }
    }

    /// A high surrogate not followed by a low one is not a character.
    fn flush_surrogate(&mut self, out: &mut String) {
        if self.high_surrogate.take().is_some() {
            out.push(char::REPLACEMENT_CHARACTER);
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// Feeds `raw` in pieces of `size` characters and collects the deltas.
    fn stream(raw: &str, size: usize) -> (Vec<String>, JsonReply) {
        let chars: Vec<char> = raw.chars().collect();
        let mut reply = JsonReply::default();
        let deltas = chars
            .chunks(size)
            .map(|piece| reply.push(&piece.iter().collect::<String>()))
            .collect();
        (deltas, reply)
    }

    #[test]
    fn response_text_is_streamed_piece_by_piece() {
        let (deltas, reply) = stream(r#"{"response":"안녕하세요, 반가워요"}"#, 3);
        let non_empty: Vec<_> = deltas.iter().filter(|d| !d.is_empty()).collect();
        assert!(
            non_empty.len() > 3,
            "expected many deltas, got {non_empty:?}"
        );
        assert_eq!(deltas.concat(), "안녕하세요, 반가워요");
        assert!(reply.is_complete());
        assert!(reply.is_response());
        assert_eq!(
            reply.parse(),
            Ok(ParsedReply::Response("안녕하세요, 반가워요".into()))
        );
    }

    #[test]
    fn escapes_are_decoded_even_when_split_across_pieces() {
        let raw = r#"{ "response" : "a\"b\\c\/d\ne\tf \u00e9 \ud83d\ude00 \uD55C" }"#;
        for size in 1..=7 {
            let (deltas, reply) = stream(raw, size);
            assert_eq!(
                deltas.concat(),
                "a\"b\\c/d\ne\tf é 😀 한",
                "piece size {size}"
            );
            assert!(reply.is_complete());
            let Ok(ParsedReply::Response(parsed)) = reply.parse() else {
                panic!("not a response")
            };
            assert_eq!(parsed, deltas.concat(), "decoder and serde_json agree");
        }
    }

    #[test]
    fn lone_surrogates_become_replacement_characters() {
        let (deltas, _) = stream(r#"{"response":"\ud83dx\ude00"}"#, 1);
        assert_eq!(deltas.concat(), "\u{fffd}x\u{fffd}");
    }

    #[test]
    fn tool_calls_stream_no_text_and_parse_in_order() {
        let raw = r#"{"tool_calls":[{"name":"get_streak","arguments":{"habit_id":3}},{"name":"list_active_habits","arguments":{}}]}"#;
        let (deltas, reply) = stream(raw, 4);
        assert_eq!(deltas.concat(), "");
        assert!(reply.is_complete());
        assert!(!reply.is_response());
        assert_eq!(
            reply.parse(),
            Ok(ParsedReply::ToolCalls(vec![
                FunctionCall {
                    name: "get_streak".into(),
                    args: json!({"habit_id": 3})
                },
                FunctionCall {
                    name: "list_active_habits".into(),
                    args: json!({})
                },
            ]))
        );
    }

    #[test]
    fn a_response_key_inside_arguments_is_not_streamed() {
        let raw = r#"{"tool_calls":[{"name":"x","arguments":{"response":"no"}}]}"#;
        let (deltas, _) = stream(raw, 1);
        assert_eq!(deltas.concat(), "");
    }

    #[test]
    fn braces_inside_strings_do_not_complete_the_object() {
        let mut reply = JsonReply::default();
        reply.push(r#"{"response":"} ] }"#);
        assert!(!reply.is_complete());
        reply.push(r#"\" }"#);
        assert!(!reply.is_complete());
        reply.push(r#"" }"#);
        assert!(reply.is_complete());
    }

    #[test]
    fn incomplete_reply_does_not_parse() {
        let mut reply = JsonReply::default();
        reply.push(r#"{"tool_calls":[{"name":"x","#);
        assert!(!reply.is_complete());
        assert!(reply.parse().is_err());
        assert_eq!(reply.raw(), r#"{"tool_calls":[{"name":"x","#);
    }
}
